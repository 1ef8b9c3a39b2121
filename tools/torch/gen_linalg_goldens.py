"""Prints the golden values of tests/unit/ops/linalg/factorization_test.cpp
and spectral_test.cpp: torch 2.6's float64 results for two small fixed
matrices (S symmetric positive-definite, G general, needing row pivots).

    chroot /work/trixie-root python3 tools/torch/gen_linalg_goldens.py
"""
import torch

torch.set_printoptions(precision=12)
S = torch.tensor([[4., 1, 2], [1, 5, 3], [2, 3, 6]], dtype=torch.float64)
G = torch.tensor([[0., 2, 1], [3, 1, 4], [1, 0, 2]], dtype=torch.float64)
B = torch.tensor([[1., 2], [3, 4], [5, 6]], dtype=torch.float64)
W = torch.tensor([[1., 2, 3, 4], [2, 0, 1, 1], [0, 1, 1, 3]], dtype=torch.float64)


def show(name, value):
    if isinstance(value, (tuple, list)):
        for i, v in enumerate(value):
            show(f"{name}[{i}]", v)
        return
    print(name, list(value.shape), value.dtype, value.flatten().tolist())


show("lu_factor_ex(G)", torch.linalg.lu_factor_ex(G))
show("lu_factor_ex(W)", torch.linalg.lu_factor_ex(W))
show("lu(W)", torch.linalg.lu(W))
show("lu_solve(G, B, adjoint)", torch.linalg.lu_solve(*torch.linalg.lu_factor(G), B, adjoint=True))
show("lu_solve(G, B^T, left=False)", torch.linalg.lu_solve(*torch.linalg.lu_factor(G), B.mT, left=False))
show("inv(G)", torch.linalg.inv(G))
show("solve(G, B[:,0])", torch.linalg.solve(G, B[:, 0]))
show("solve(G, B^T, left=False)", torch.linalg.solve(G, B.mT, left=False))
show("det(G)", torch.linalg.det(G))
show("slogdet(-G)", torch.linalg.slogdet(-G))
show("logdet(G)", torch.logdet(G))
show("cholesky(S)", torch.linalg.cholesky(S))
show("cholesky(S, upper)", torch.linalg.cholesky(S, upper=True))
L = torch.linalg.cholesky(S)
show("cholesky_solve(B, L)", torch.cholesky_solve(B, L))
show("cholesky_inverse(L^T, upper)", torch.cholesky_inverse(L.mT, upper=True))
show("solve_triangular(G, B, upper)", torch.linalg.solve_triangular(G, B, upper=True))
show("solve_triangular(G, B^T, lower, right, unit)",
     torch.linalg.solve_triangular(G, B.mT, upper=False, left=False, unitriangular=True))
show("triangular_solve(B, G, transpose)", torch.triangular_solve(B, G, transpose=True)[0])
show("geqrf(W^T)", torch.geqrf(W.mT))
a, tau = torch.geqrf(W.mT)
show("householder_product(geqrf(W^T))", torch.linalg.householder_product(a, tau))
show("ormqr(geqrf(W^T), W^T^T... left, transpose)", torch.ormqr(a, tau, torch.eye(4, dtype=torch.float64)[:, :3], left=True, transpose=True))
show("qr(W^T, complete)", torch.linalg.qr(W.mT, mode="complete"))
show("eigvalsh(S)", torch.linalg.eigvalsh(S))
show("eigh(S) vectors", torch.linalg.eigh(S)[1])
show("svdvals(W)", torch.linalg.svdvals(W))
show("svd(W) U", torch.linalg.svd(W)[0])
show("pinv(W)", torch.linalg.pinv(W))
show("matrix_rank(G[:2] stacked)", torch.linalg.matrix_rank(torch.stack([G, G.clone().index_fill_(0, torch.tensor([2]), 0)])))
show("matrix_norm(W, nuc)", torch.linalg.matrix_norm(W, "nuc"))
show("matrix_norm(W, -2)", torch.linalg.matrix_norm(W, -2))
show("matrix_norm(W, inf)", torch.linalg.matrix_norm(W, float("inf")))
show("cond(G)", torch.linalg.cond(G))
show("cond(G, 1)", torch.linalg.cond(G, 1))
show("matrix_exp(G/4)", torch.linalg.matrix_exp(G / 4))
show("matrix_exp(G)", torch.linalg.matrix_exp(G))
show("matrix_exp(G/4) f32", torch.linalg.matrix_exp((G / 4).float()))
show("matrix_power(G, -3)", torch.linalg.matrix_power(G, -3))
show("multi_dot", torch.linalg.multi_dot([B[:, 0], G, G, B]))
show("vander", torch.linalg.vander(torch.tensor([1., 2, 3]), N=4))
