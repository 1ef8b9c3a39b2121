// The types of a program's description (Program.description, inspect()).
// Generated from src/runtime/description.schema.json by
// npm/tools/description_types.mjs: edit the schema, then run the tool.

/** One step of the prepare pipeline (src/runtime/prepare_pipeline.h). */
export interface PrepareStep {
  /** The step's name, e.g. "fold batch norms" or "bind nodes to kernels". */
  step: string;
  /** What the step changed ("changed the program"); empty when it changed nothing or does not say. */
  detail: string;
}

/** The dtypes a Tensor can hold (torch's names without the `torch.` prefix). */
export type DType = 'float32' | 'float64' | 'float16' | 'bfloat16' | 'int64' | 'int32' | 'int16' | 'int8' | 'uint8' | 'bool' | 'uint16' | 'uint32' | 'uint64' | 'complex64' | 'complex128';

/** An integer: a number up to 2^53 in magnitude, a decimal string beyond. */
export type Integer = number | string;

/** A symbolic size's range: [min, max], null when unbounded. */
export type Range = [Integer | null, Integer | null];

/** The range of every symbol a shape or scalar uses. */
export type Ranges = Record<string, Range>;

/** Static sizes as numbers, symbolic ones as their expression ("s0", "2*s0"). */
export type Shape = Array<Integer | string>;

/**
 * A Python scalar: int or float as a number ("nan", "inf", "-inf", and ints past 2^53 as strings),
 * bool, str, or null for None.
 */
export type ConstantValue = number | string | boolean | null;

export interface ArchiveDescription {
  /** "pt2-archive" (torch 2.6's archive format) or "legacy" (torch.export.save before it). */
  kind: 'pt2-archive' | 'legacy';
  /** The archive entry the program was read from. */
  program_entry: string;
  /** The models the archive holds (load()'s `model` option picks one). */
  models: string[];
  /** Every entry of the archive with its size in bytes. */
  entries: Array<{
    name: string;
    size: Integer;
  }>;
}

/** A user input of a program, in call order. */
export type InputDescription = {
  kind: 'tensor';
  /** Where the value goes in (args, kwargs), torch's keystr: "*args[0]", "**kwargs['mask']". */
  path: string;
  /** The graph's name for the input. */
  name: string;
  dtype: DType;
  shape: Shape;
  ranges: Ranges;
} | {
  /** A symbolic Python scalar. */
  kind: 'int' | 'float' | 'bool';
  path: string;
  name: string;
  /** Its symbol or expression, when it has one. */
  symbol?: string;
  ranges: Ranges;
} | {
  /** A Python scalar torch specialized: run() must receive exactly this value. */
  kind: 'constant';
  path: string;
  name: string;
  type: 'int' | 'float' | 'bool' | 'str' | 'none' | 'other';
  value: ConstantValue;
};

/**
 * A user output of a program. path: where the value is in what run() returns, torch's keystr ("" for
 * the returned value itself, "[0]" for the first item, "['logits']" for a key); name: the graph's name
 * for it; loss: whether it is the loss output.
 */
export type OutputDescription = {
  kind: 'tensor';
  path: string;
  name: string;
  loss: boolean;
  dtype: DType;
  shape: Shape;
  ranges: Ranges;
} | {
  kind: 'int' | 'float' | 'bool';
  path: string;
  name: string;
  loss: boolean;
  symbol?: string;
  ranges: Ranges;
} | {
  kind: 'constant';
  path: string;
  name: string;
  loss: boolean;
  type: 'int' | 'float' | 'bool' | 'str' | 'none' | 'other';
  value: ConstantValue;
};

/** An operator the program uses. */
export interface OperatorDescription {
  /** The node's target as the program names it, e.g. "torch.ops.aten.addmm.default". */
  target: string;
  /** The ATen overload, e.g. "aten::addmm.default". */
  qualified: string;
  /** How many nodes call it. */
  count: number;
  /** Whether pt2web runs it. */
  supported: boolean;
}

/** One entry of torch's input_specs. */
export interface InputSpec {
  kind: 'USER_INPUT' | 'PARAMETER' | 'BUFFER' | 'CONSTANT_TENSOR' | 'CUSTOM_OBJ' | 'TOKEN';
  arg: string;
  /** The state-dict name it reads, null for user inputs. */
  target: string | null;
  /** For buffers: whether the state dict keeps it; null otherwise. */
  persistent: boolean | null;
  /** For a specialized constant input: its value. */
  value?: ConstantValue;
}

/** One entry of torch's output_specs. */
export interface OutputSpec {
  kind: 'USER_OUTPUT' | 'LOSS_OUTPUT' | 'BUFFER_MUTATION' | 'GRADIENT_TO_PARAMETER' | 'GRADIENT_TO_USER_INPUT' | 'USER_INPUT_MUTATION' | 'TOKEN' | 'PARAMETER_MUTATION';
  arg: string;
  /** The buffer, parameter or input it writes, null for user outputs. */
  target: string | null;
}

export type NameMap = Record<string, string>;

/** torch's graph signature with its derived views (ExportGraphSignature's properties). */
export interface GraphSignature {
  input_specs: InputSpec[];
  output_specs: OutputSpec[];
  parameters: string[];
  buffers: string[];
  non_persistent_buffers: string[];
  lifted_tensor_constants: string[];
  lifted_custom_objs: string[];
  user_inputs: string[];
  user_outputs: string[];
  inputs_to_parameters: NameMap;
  inputs_to_buffers: NameMap;
  inputs_to_lifted_tensor_constants: NameMap;
  buffers_to_mutate: NameMap;
  user_inputs_to_mutate: NameMap;
  /** For a joint (training) graph: which outputs are gradients, and the loss; null otherwise. */
  backward_signature: {
    gradients_to_parameters: NameMap;
    gradients_to_user_inputs: NameMap;
    loss_output: string;
  } | null;
  /** The output that carries the runtime assertions' token, null when none. */
  assertion_dep_token: string | null;
}

export interface StateTensor {
  /** Its state-dict (or constant) name. */
  name: string;
  kind: 'parameter' | 'buffer' | 'constant';
  dtype: DType;
  shape: number[];
}

export interface StateTotals {
  count: number;
  bytes: Integer;
}

/**
 * What describe_program (src/runtime/describe.cpp) writes about a program: what `pt2web info --json`
 * prints, inspect() resolves to and Program.description holds.
 */
export interface ProgramDescription {
  /** The archive's layout; null for a program read without one. */
  archive: ArchiveDescription | null;
  /** The version of torch's serialization schema the program was written with. */
  schema_version: {
    major: number;
    minor: number;
  };
  /** The torch that wrote the program ("" when the archive does not say). */
  torch_version: string;
  /** "TRAINING" (torch.export's default) or "ATEN" (after run_decompositions()), as the program says. */
  dialect: 'TRAINING' | 'ATEN' | (string & {});
  /** User inputs in call order. */
  inputs: InputDescription[];
  /** User outputs in flatten order. */
  outputs: OutputDescription[];
  signature: GraphSignature;
  /**
   * How many parameters, buffers and lifted constants the program holds, their bytes, and each one's
   * dtype and shape.
   */
  state: {
    parameters: StateTotals;
    buffers: StateTotals;
    constants: StateTotals;
    /** Every parameter, buffer and lifted tensor constant, in the signature's order. */
    tensors: StateTensor[];
  };
  /** The range of every symbolic size, by symbol ("s0"). */
  range_constraints: Record<string, Range>;
  /**
   * Conditions on the inputs beyond the ranges that torch 2.14 recorded (guards_code) and every call
   * must meet, as torch's failure message prints them ("x.size()[0] % 2 == 0"); empty for most
   * programs.
   */
  guards: string[];
  /** The inputs' TreeSpec as torch prints it. */
  in_spec: string;
  /** The outputs' TreeSpec as torch prints it. */
  out_spec: string;
  /** Every operator the program uses, over the graph and all its subgraphs, sorted by target. */
  operators: OperatorDescription[];
  /**
   * The prepare steps pt2web ran on the program at load, in order, with what they changed (null for
   * inspect(), which prepares nothing). A step repeated per subgraph is one entry. Their times are
   * left out so that a program's description is the same on every load.
   */
  prepare: PrepareStep[] | null;
  /**
   * The program printed in the spirit of Python's print(ep) (Program.description has it; inspect()
   * does not).
   */
  printed?: string;
}
