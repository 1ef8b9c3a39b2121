#!/usr/bin/env bash
# Compares the operators pt2web registers (src/ops/**/*.cpp) with the Core ATen
# operator set stored in docs/core_aten_ops.txt and prints
#   "N of M Core ATen overloads supported"
# followed by the missing overloads.
#
# Usage: tools/list_core_aten_coverage.sh [--registered | --extra | --supported]
#   (no option)   the count and the missing Core ATen overloads
#   --registered  every operator name registered in src/ops, one a line
#   --extra       registered operators that are not Core ATen overloads
#   --supported   Core ATen overloads that pt2web registers
#
# The names are read from the source, not from a build: every
# OpTable::add("<ns>::<name>[.<overload>](...)") call and the helpers in
# src/ops that build schema strings (add_pair, add_with_in_place,
# add_comparison, add_bitwise, add_floating, add_same_dtype,
# functional_schema, in_place_schema, the `for (const char* name : {...})`
# loops and control_flow/symbolic.cpp's {"ns::name", fn} table). A t.add( call of any other
# shape is reported on stderr and makes the script exit 2, so a new
# registration helper cannot be missed silently.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
core_list="$root/docs/core_aten_ops.txt"
mode="${1:-}"
case "$mode" in
  ""|--registered|--extra|--supported) ;;
  *) echo "usage: $0 [--registered | --extra | --supported]" >&2; exit 64 ;;
esac

# Prints one qualified name per line ("aten::add.Tensor", "aten::relu.default").
# Unrecognised t.add( shapes go to stderr prefixed with "UNRECOGNISED".
extract_registered() {
  perl -e '
    use strict; use warnings;
    my %names;
    sub emit { my ($n) = @_; $n .= ".default" unless $n =~ /::[^.]*\./; $names{$n} = 1; }
    # name + overload suffix: add_with_in_place("x", "OV") registers x.OV and x_.OV
    sub pair { my ($name, $ov) = @_; my $s = $ov eq "" ? "" : ".$ov";
               emit("aten::$name$s"); emit("aten::${name}_$s"); }
    for my $file (@ARGV) {
      open(my $fh, "<", $file) or die "$file: $!";
      my @lines = <$fh>; close $fh;
      # Expand `for (const char* name : {"a", "b"}) { ... }` loops: each body
      # line is repeated with `name` replaced by each string.
      my @expanded; my @loop; my $depth = 0;
      for my $line (@lines) {
        if (!@loop && $line =~ /for \(const char\* name : \{([^}]*)\}\) \{\s*$/) {
          @loop = ($1 =~ /"([^"]+)"/g); $depth = 1; next;
        }
        if (@loop) {
          $depth += () = $line =~ /\{/g; $depth -= () = $line =~ /\}/g;
          if ($depth <= 0) { @loop = (); next; }
          for my $n (@loop) { (my $l = $line) =~ s/\bname\b/"$n"/g; push @expanded, $l; }
          next;
        }
        push @expanded, $line;
      }
      my $lineno = 0;
      for my $line (@expanded) {
        $lineno++;
        # 1. literal schema strings: t.add("aten::addmm(...", t.add("_operator::neg(...
        while ($line =~ /\bt\.add\(\s*"([A-Za-z_][A-Za-z0-9_]*::[A-Za-z0-9_.]+)\(/g) { emit($1); }
        # 2. pointwise/unary.cpp helpers
        while ($line =~ /\badd_(?:floating|same_dtype)<[^>]*>\(t, "([a-z0-9_]+)"\)/g) { pair($1, ""); }
        while ($line =~ /\bfunctional_schema\("([a-z0-9_]+)"/g) { emit("aten::$1"); }
        while ($line =~ /\bin_place_schema\("([a-z0-9_]+)"/g) { emit("aten::$1_"); }
        # 3. activations.cpp add_pair(t, "gelu", ...): gelu, gelu_
        while ($line =~ /\badd_pair\(t, "([a-z0-9_]+)"/g) { pair($1, ""); }
        # 4. comparison_logical.cpp helpers
        while ($line =~ /\badd_with_in_place\(t, "([a-z0-9_]+)", "([A-Za-z0-9_]*)"/g) { pair($1, $2); }
        while ($line =~ /\badd_comparison<[^>]*>\(t, "([a-z0-9_]+)"\)/g) { pair($1, "Tensor"); pair($1, "Scalar"); }
        while ($line =~ /\badd_bitwise<[^>]*>\(t, "([a-z0-9_]+)"\)/g) {
          pair($1, "Tensor"); pair($1, "Scalar"); emit("aten::$1.Scalar_Tensor"); }
        # 5. conversion.cpp loop body after expansion: std::string("aten::") + "dropout" + "_(
        while ($line =~ /\bt\.add\(std::string\("([A-Za-z_]+::)"\) \+ "([a-z0-9_]+)" \+ "([A-Za-z0-9_.]*)\(/g) { emit("$1$2$3"); }
        # 6. control_flow/symbolic.cpp table entries {"_operator::add", op_add}
        while ($line =~ /\{"([A-Za-z_][A-Za-z0-9_]*::[A-Za-z0-9_.]+)", [A-Za-z_][A-Za-z0-9_]*\}/g) { emit($1); }
        # Every t.add( must be of a shape handled above.
        if ($line =~ /\bt\.add\(/) {
          next if $line =~ /\bt\.add\(\s*"[A-Za-z_][A-Za-z0-9_]*::[A-Za-z0-9_.]+\(/;          # 1
          next if $line =~ /\bt\.add\((?:functional|in_place)_schema\(/;                     # 2
          next if $line =~ /\bt\.add\("aten::" \+ name \+/;                                   # 3, 4 (helper bodies)
          next if $line =~ /\bt\.add\(std::string\("[A-Za-z_]+::"\) \+ "[a-z0-9_]+" \+ "/;   # 5
          next if $line =~ /\bt\.add\(std::string\(e\.name\) \+ binary/;                      # 6
          print STDERR "UNRECOGNISED $file: $line";
        }
      }
    }
    print "$_\n" for sort keys %names;
  ' $(find "$root"/src/ops -name "*.cpp" | sort)
}

registered="$(mktemp)"; core="$(mktemp)"; errors="$(mktemp)"
trap 'rm -f "$registered" "$core" "$errors"' EXIT

extract_registered 2> "$errors" | LC_ALL=C sort -u > "$registered"
grep -v '^[[:space:]]*#' "$core_list" | grep -v '^[[:space:]]*$' | LC_ALL=C sort -u > "$core"

if [ -s "$errors" ]; then
  cat "$errors" >&2
  echo "error: registrations of an unknown shape in src/ops; teach $0 about them" >&2
  exit 2
fi

case "$mode" in
  --registered) cat "$registered"; exit 0 ;;
  --extra) LC_ALL=C comm -23 "$registered" "$core"; exit 0 ;;
  --supported) LC_ALL=C comm -12 "$registered" "$core"; exit 0 ;;
esac

total=$(wc -l < "$core")
supported=$(LC_ALL=C comm -12 "$registered" "$core" | wc -l)
grep -m1 '^#' "$core_list" | sed 's/^#[[:space:]]*//'
echo "$supported of $total Core ATen overloads supported ($(wc -l < "$registered") operators registered in src/ops)"
echo "missing ($((total - supported))):"
LC_ALL=C comm -13 "$registered" "$core" | sed 's/^/  /'
