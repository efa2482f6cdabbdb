"""Run by test_evaluator.py when PyTorch is installed: two processes (torch.multiprocessing, the gloo
backend on this host) each evaluate their half of the rows from CPU tensors, sync over
torch.distributed, and write their report as JSON into the folder named on the command line."""

import json
import os
import sys


def all_rows():
    """The rows of both processes, in rank order (tensors)."""
    import torch

    g = torch.Generator().manual_seed(3)
    y = (torch.rand(3000, generator=g) < 0.3).long()
    s = torch.round(torch.clamp(0.35 * y + torch.randn(3000, generator=g) * 0.25 + 0.4, 0, 1), decimals=2)
    return y, s


def worker(rank, world, out, port):
    import torch.distributed as dist

    import assay

    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    dist.init_process_group("gloo", rank=rank, world_size=world)
    y, s = all_rows()
    lo, hi = rank * len(y) // world, (rank + 1) * len(y) // world
    ev = assay.Evaluator(ci=0.95, method="bootstrap", replicates=100)
    for a in range(lo, hi, 256):
        ev.update(y[a:min(a + 256, hi)], y_score=s[a:min(a + 256, hi)])
    ev.sync(assay.Evaluator.torch_all_gather())
    with open(os.path.join(out, f"{rank}.json"), "w", encoding="utf-8") as f:
        json.dump(ev.report().to_dict(), f)
    dist.destroy_process_group()


if __name__ == "__main__":
    import torch.multiprocessing as mp

    mp.spawn(worker, args=(2, sys.argv[1], int(sys.argv[2])), nprocs=2)
