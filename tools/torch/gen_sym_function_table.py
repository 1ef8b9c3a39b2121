"""The expected values of the symbolic-expression functions torch writes in
size expressions and range constraints (torch/utils/_sympy/functions.py of
torch 2.6 and the sympy classes those expressions use), computed by sympy
itself, for tests/unit/program/sym_functions_test.cpp.

Each row is an expression built from torch's and sympy's classes, its
sympy.srepr text (what torch's serializer writes since 2.6) and str() text
(the older form), symbol values, and the value sympy gives after
substituting them (an integer, or 1/0 for a relation).

Run with torch 2.6 (the trixie chroot of ../shared/tools/README.md):
    python3 gen_sym_function_table.py > tests/unit/program/sym_functions_table.inc
"""
import sympy
from sympy import Abs, And, Eq, Float, Ge, Gt, Integer, Le, Lt, Ne, Not, Or, Rational, S, ceiling, floor, sympify

import torch.utils._sympy.functions as torch_functions


class _Functions:
    """torch's sympy functions with plain Python numbers turned into sympy
    ones, as torch's own callers pass them."""
    def __getattr__(self, name):
        cls = getattr(torch_functions, name)
        return lambda *args: cls(*(sympify(a) for a in args))


F = _Functions()

s0 = sympy.Symbol("s0", integer=True, positive=True)
s1 = sympy.Symbol("s1", integer=True, positive=True)
u0 = sympy.Symbol("u0", integer=True)


def rows():
    """(description, expression, [symbol values...]) for each function."""
    out = []

    def add(what, expr, *bindings):
        out.append((what, expr, bindings))

    vals2 = ({"s0": 7, "s1": 3}, {"s0": 12, "s1": 5}, {"s0": 1, "s1": 4})
    valsu = ({"s0": 7, "u0": -5}, {"s0": 6, "u0": 9}, {"s0": 3, "u0": 0})
    add("FloorDiv", F.FloorDiv(s0, s1), *vals2)
    add("FloorDiv negative", F.FloorDiv(u0, s0), *valsu)
    add("FloorDiv of a sum", F.FloorDiv(s0 + 3, 2), *vals2)
    add("ModularIndexing", F.ModularIndexing(s0, s1, 4), *vals2)
    add("CleanDiv", F.CleanDiv(s0 * s1, s1), *vals2)
    add("CeilDiv", F.CeilDiv(s0, s1), *vals2)
    add("CeilDiv negative", F.CeilDiv(u0, s0), *valsu)
    add("IntTrueDiv under TruncToInt", F.TruncToInt(F.IntTrueDiv(s0, s1) * 3), *vals2)
    add("IntTrueDiv negative under FloorToInt", F.FloorToInt(F.IntTrueDiv(u0, s0)), *valsu)
    add("FloatTrueDiv under CeilToInt", F.CeilToInt(F.FloatTrueDiv(F.ToFloat(s0), F.ToFloat(s1))), *vals2)
    add("PythonMod", F.PythonMod(u0, s0), *valsu)
    add("Mod", F.Mod(s0, s1), *vals2)
    add("sympy Mod", sympy.Mod(s0 + 5, s1), *vals2)
    add("Max", F.Max(s0, s1, 4), *vals2)
    add("Min", F.Min(s0, s1 + 1), *vals2)
    add("Max of u0 and 0", F.Max(u0, 0), *valsu)
    add("Where", F.Where(Lt(s0, s1), s0, s1 * 2), *vals2)
    add("LShift", F.LShift(s0, s1), *vals2)
    add("RShift", F.RShift(s0 * 40, s1), *vals2)
    add("RShift negative", F.RShift(u0, 1), *valsu)
    add("PowByNatural", F.PowByNatural(s0, s1), *vals2)
    add("PowByNatural of a sum", F.PowByNatural(s0 + 1, 2), *vals2)
    add("FloatPow under TruncToInt", F.TruncToInt(F.FloatPow(F.ToFloat(s0), Float(1.5))), *vals2)
    add("TruncToFloat under TruncToInt", F.TruncToInt(F.TruncToFloat(F.FloatTrueDiv(F.ToFloat(u0), Float(2.0))) * 3), *valsu)
    add("TruncToInt of a Float product", F.TruncToInt(Float(2.5) * F.ToFloat(s0)), *vals2)
    add("TruncToInt negative", F.TruncToInt(Float(0.75) * F.ToFloat(u0)), *valsu)
    add("FloorToInt", F.FloorToInt(Float(0.1) * F.ToFloat(s0 * 10)), *vals2)
    add("CeilToInt", F.CeilToInt(Float(0.3) * F.ToFloat(s0)), *vals2)
    add("CeilToInt negative", F.CeilToInt(Float(0.3) * F.ToFloat(u0)), *valsu)
    add("RoundToInt half to even", F.RoundToInt(F.IntTrueDiv(s0, 2)), {"s0": 5, "s1": 1}, {"s0": 7, "s1": 1},
        {"s0": 8, "s1": 1})
    add("RoundToInt", F.RoundToInt(Float(0.37) * F.ToFloat(s0)), *vals2)
    add("RoundDecimal under TruncToInt", F.TruncToInt(F.RoundDecimal(F.IntTrueDiv(s0, s1), 1) * 10), *vals2)
    add("ToFloat", F.TruncToInt(F.ToFloat(s0) * Float(1.25)), *vals2)
    add("Identity", F.Identity(s0 + s1), *vals2)
    add("BitwiseFn_bitwise_and", F.BitwiseFn_bitwise_and(s0, s1), *vals2)
    add("BitwiseFn_bitwise_or", F.BitwiseFn_bitwise_or(s0, s1 * 8), *vals2)
    add("OpaqueUnaryFn_sqrt", F.FloorToInt(F.OpaqueUnaryFn_sqrt(F.ToFloat(s0 * s1))), *vals2)
    add("OpaqueUnaryFn_exp", F.FloorToInt(F.OpaqueUnaryFn_exp(F.FloatTrueDiv(F.ToFloat(s0), Float(4.0)))), *vals2)
    add("OpaqueUnaryFn_log", F.CeilToInt(F.OpaqueUnaryFn_log(F.ToFloat(s0 + s1))), *vals2)
    add("OpaqueUnaryFn_log2", F.FloorToInt(F.OpaqueUnaryFn_log2(F.ToFloat(s0 * 3))), *vals2)
    for name in ("cos", "cosh", "sin", "sinh", "tan", "tanh", "atan", "asinh"):
        fn = getattr(F, "OpaqueUnaryFn_" + name)
        add("OpaqueUnaryFn_" + name, F.FloorToInt(fn(F.FloatTrueDiv(F.ToFloat(s0), F.ToFloat(s1))) * 100), *vals2)
    for name in ("asin", "acos"):
        fn = getattr(F, "OpaqueUnaryFn_" + name)
        add("OpaqueUnaryFn_" + name, F.FloorToInt(fn(F.FloatTrueDiv(F.ToFloat(s1), F.ToFloat(s0 + s1))) * 100), *vals2)
    add("IsNonOverlappingAndDenseIndicator contiguous", F.IsNonOverlappingAndDenseIndicator(s0, s1, s1, 1), *vals2)
    add("IsNonOverlappingAndDenseIndicator transposed", F.IsNonOverlappingAndDenseIndicator(s0, s1, 1, s0), *vals2)
    add("IsNonOverlappingAndDenseIndicator gap", F.IsNonOverlappingAndDenseIndicator(s0, s1, s1 + 1, 1), *vals2)
    add("Abs", Abs(u0 - 3), *valsu)
    add("Pow", s0 ** 2 + s1 ** 3, *vals2)
    add("Pow negative exponent", F.FloorToInt(s0 ** -1 * 100), *vals2)
    add("Rational", F.FloorToInt(Rational(3, 4) * s0), *vals2)
    add("sympy floor", floor(Rational(1, 3) * s0), *vals2)
    add("sympy ceiling", ceiling(Rational(1, 3) * s0), *vals2)
    add("Eq", Eq(F.Mod(s0, s1), 0), *vals2)
    add("Ne", Ne(s0, 12), *vals2)
    add("Lt", Lt(s0, 2 * s1), *vals2)
    add("Le", Le(s0 + 1, 8), *vals2)
    add("Gt", Gt(s1, 3), *vals2)
    add("Ge", Ge(u0, 0), *valsu)
    add("And", And(Ge(s0, 2), Le(s0, 10)), *vals2)
    add("Or", Or(Lt(s0, 2), Gt(s1, 4)), *vals2)
    add("Not", Not(Eq(s0, 7)), *vals2)
    add("range constraint form", And(Le(2, s0), Le(s0, 64), Eq(F.Mod(s0, 2), 0)), *vals2)
    add("Where of relations", F.Where(And(Gt(u0, 0), Lt(u0, s0)), u0, 0), *valsu)
    add("Float literal", F.TruncToInt(Float(3.0) * F.ToFloat(s0) + Float(0.5)), *vals2)
    add("true", And(S.true, Ge(s0, 1)), *vals2)
    add("false", Or(S.false, Gt(s0, 100)), *vals2)
    return out


def value_of(expr, binding):
    subs = {s0: binding.get("s0"), s1: binding.get("s1"), u0: binding.get("u0")}
    subs = {k: Integer(v) for k, v in subs.items() if v is not None}
    v = expr.xreplace(subs)
    if v in (S.true, sympy.true):
        return 1
    if v in (S.false, sympy.false):
        return 0
    if not v.is_Integer:  # Identity keeps its number wrapped until asked
        v = v.replace(lambda e: isinstance(e, torch_functions.Identity), lambda e: e.args[0]).doit()
    if not v.is_Integer:
        raise ValueError(f"{expr} with {binding} gives {v}, not an integer")
    return int(v)


def str_form(expr):
    """str(expr), or "" where sympy's printer loses the function (it prints
    Identity(x) as the imaginary unit I)."""
    return "" if expr.has(torch_functions.Identity) else str(expr)


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main():
    print("// Generated by tools/torch/gen_sym_function_table.py with torch 2.6 / sympy "
          f"{sympy.__version__}: do not edit.")
    print("// {what, srepr text, str() text, {{symbol, value}...}, expected}")
    for what, expr, bindings in rows():
        for b in bindings:
            pairs = ", ".join("{%s, %d}" % (c_string(k), v) for k, v in sorted(b.items()))
            print("{%s, %s, %s, {%s}, %d}," % (c_string(what), c_string(sympy.srepr(expr)), c_string(str_form(expr)),
                                                pairs, value_of(expr, b)))


if __name__ == "__main__":
    main()
