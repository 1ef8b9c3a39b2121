// Writes a minimal torch.export archive by hand: a Core ATen ("ATEN"
// dialect) program of one call_function node whose inputs are float32
// parameters and one float32 user input, in the legacy layout torch 2.6's
// torch.export.save writes (serialized_exported_program.json,
// serialized_state_dict.pt, serialized_constants.pt,
// serialized_example_inputs.pt (empty: no example inputs), version).
// The JSON follows schema 8.x as in the fixtures (compare
// `unzip -p tests/fixtures/mlp_dynamic/model.core.pt2 serialized_exported_program.json`).

import { torchSaveParameters } from './torch_save_writer.mjs';
import { writeStoredZip } from './zip_writer.mjs';

const SERDE_FLOAT32 = 7; // torch._export.serde.schema.ScalarType.FLOAT
const SERDE_STRIDED = 7; // torch._export.serde.schema.Layout.Strided
const SCHEMA_VERSION = '8.2';

// Pytree specs for forward(x) -> tensor, as torch's treespec_dumps writes them.
const LEAF = { type: null, context: null, children_spec: [] };
const IN_SPEC_ONE_ARG = JSON.stringify([
  1,
  {
    type: 'builtins.tuple',
    context: 'null',
    children_spec: [
      { type: 'builtins.tuple', context: 'null', children_spec: [LEAF] },
      { type: 'builtins.dict', context: '[]', children_spec: [] },
    ],
  },
]);
const OUT_SPEC_ONE_LEAF = JSON.stringify([1, LEAF]);

function tensorMeta(shape, requiresGrad) {
  const strides = [];
  let s = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    strides.unshift({ as_int: s });
    s *= shape[i];
  }
  return {
    dtype: SERDE_FLOAT32,
    sizes: shape.map((d) => ({ as_int: d })),
    requires_grad: requiresGrad,
    device: { type: 'cpu' },
    strides,
    storage_offset: { as_int: 0 },
    layout: SERDE_STRIDED,
  };
}

/** Argument helpers for node inputs ({name, arg} pairs). */
export const arg = {
  tensor: (name) => ({ as_tensor: { name } }),
  ints: (values) => ({ as_ints: values }),
  int: (value) => ({ as_int: value }),
  bool: (value) => ({ as_bool: value }),
  none: () => ({ as_none: true }),
};

/**
 * @param {object} spec
 * @param {string} spec.target e.g. 'torch.ops.aten.mm.default'
 * @param {{name: string, shape: number[]}} spec.input the user input
 * @param {Array<{fqn: string, placeholder: string, shape: number[], data: Float32Array}>} spec.parameters
 * @param {Array<{name: string, arg: object}>} spec.nodeInputs the node's NamedArguments
 * @param {{name: string, shape: number[]}} spec.output the node's (and program's) output
 * @returns {Uint8Array} the .pt2 file
 */
export function writeSingleNodePt2({ target, input, parameters, nodeInputs, output }) {
  const tensorValues = {};
  for (const p of parameters) tensorValues[p.placeholder] = tensorMeta(p.shape, true);
  tensorValues[input.name] = tensorMeta(input.shape, false);
  tensorValues[output.name] = tensorMeta(output.shape, false);

  const graphInputs = [...parameters.map((p) => arg.tensor(p.placeholder)), arg.tensor(input.name)];
  const program = {
    graph_module: {
      graph: {
        inputs: graphInputs,
        outputs: [arg.tensor(output.name)],
        nodes: [{ target, inputs: nodeInputs, outputs: [arg.tensor(output.name)], metadata: {} }],
        tensor_values: tensorValues,
        sym_int_values: {},
        sym_bool_values: {},
        is_single_tensor_return: false,
        custom_obj_values: {},
        sym_float_values: {},
      },
      signature: {
        input_specs: [
          ...parameters.map((p) => ({ parameter: { arg: { name: p.placeholder }, parameter_name: p.fqn } })),
          { user_input: { arg: arg.tensor(input.name) } },
        ],
        output_specs: [{ user_output: { arg: arg.tensor(output.name) } }],
      },
      module_call_graph: [
        {
          fqn: '',
          signature: {
            inputs: [],
            outputs: [],
            in_spec: IN_SPEC_ONE_ARG,
            out_spec: OUT_SPEC_ONE_LEAF,
            forward_arg_names: [input.name],
          },
        },
      ],
      metadata: {},
    },
    opset_version: { aten: 10 },
    range_constraints: {},
    schema_version: { major: 8, minor: 2 },
    verifiers: ['ATEN'],
    torch_version: '2.6.0',
  };

  return writeStoredZip([
    { name: 'serialized_exported_program.json', data: JSON.stringify(program) },
    { name: 'serialized_state_dict.pt', data: torchSaveParameters(parameters.map((p) => ({ name: p.fqn, shape: p.shape, data: p.data }))) },
    { name: 'serialized_constants.pt', data: torchSaveParameters([]) },
    { name: 'serialized_example_inputs.pt', data: new Uint8Array(0) },
    { name: 'version', data: SCHEMA_VERSION },
  ]);
}
