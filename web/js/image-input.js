// "Run on your image": for a program whose first tensor input looks like an
// image batch (float, [N, C, H, W] with C 1 or 3), a picked image is scaled
// to H x W (symbolic sizes take the largest value their range allows, up
// to 224), centred without cropping on black, and turned into a [1, C, H,
// W] tensor of values in [0, 1] (grey for C = 1). No normalization: the
// program gets exactly the pixels.

const DEFAULT_SIDE = 224;

function sideOf(entry, ranges) {
  if (typeof entry === 'number') return entry;
  const range = ranges?.[entry];
  if (!range) return null;
  const [min, max] = range;
  return Math.max(min ?? 1, Math.min(max ?? DEFAULT_SIDE, DEFAULT_SIDE));
}

/** The image input of a description ({path, channels, height, width}), or null. */
export function imageInputOf(description) {
  const input = description.inputs.find((i) => i.kind === 'tensor');
  if (!input || !/^(float|bfloat)/.test(input.dtype) || input.shape.length !== 4) return null;
  const [batch, channels, height, width] = input.shape;
  if (typeof channels !== 'number' || (channels !== 1 && channels !== 3)) return null;
  if (typeof batch === 'number' && batch !== 1) return null;
  if (typeof batch !== 'number' && input.ranges?.[batch] && (input.ranges[batch][0] ?? 1) > 1) return null;
  const h = sideOf(height, input.ranges);
  const w = sideOf(width, input.ranges);
  if (!h || !w) return null;
  return { path: input.path, dtype: input.dtype, channels, height: h, width: w };
}

/**
 * The picked image as {dtype, shape, data} for the input: drawn into an
 * H x W canvas, scaled to fit and centred.
 */
export async function imageTensor(file, input) {
  const bitmap = await createImageBitmap(file);
  const { width, height, channels } = input;
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#000';
  context.fillRect(0, 0, width, height);
  const scale = Math.min(width / bitmap.width, height / bitmap.height);
  const w = bitmap.width * scale;
  const h = bitmap.height * scale;
  context.drawImage(bitmap, (width - w) / 2, (height - h) / 2, w, h);
  bitmap.close();
  const rgba = context.getImageData(0, 0, width, height).data;
  const plane = width * height;
  const data = new Float32Array(channels * plane);
  for (let i = 0; i < plane; i++) {
    const [r, g, b] = [rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]];
    if (channels === 3) {
      data[i] = r / 255;
      data[plane + i] = g / 255;
      data[2 * plane + i] = b / 255;
    } else {
      data[i] = (0.299 * r + 0.587 * g + 0.114 * b) / 255;
    }
  }
  return { dtype: 'float32', shape: [1, channels, height, width], data };
}
