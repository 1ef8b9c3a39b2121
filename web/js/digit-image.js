// Turns a drawing (pen strokes) into the input of the digits_cnn model: an
// 8x8 image with values in [0, 1], made the way scikit-learn's digits were
// made. Those come from 32x32 black-and-white bitmaps of digits scaled to
// fill the box; each 4x4 block's count of inked pixels (0..16) is one pixel
// of the 8x8 image, and the model was trained on that count divided by 16.
//
// So: the strokes are cropped to their bounding box, scaled (aspect ratio
// kept) so the longer side fills the 32x32 bitmap less a small margin,
// centred, drawn with a round pen of fixed width into the bitmap, and pooled
// 4x4. Drawing from vectors, not from the screen's pixels, makes the result
// independent of how large the visitor draws and of the screen's resolution.
// Pure functions: no DOM, so Node tests use the very same code.

export const GRID = 8;
export const BITMAP = 32;
const BLOCK = BITMAP / GRID;

/** Defaults close to the strokes of the scikit-learn digits. */
export const DEFAULT_STYLE = Object.freeze({
  penRadius: 2.6, // bitmap pixels: strokes about 5 of 32 pixels wide, as in the scikit-learn bitmaps
  margin: 0.5, // bitmap pixels kept free around the inked box
});

function boundsOf(strokes) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const stroke of strokes) {
    for (const { x, y } of stroke) {
      if (x < minX) minX = x;
      if (y < minY) minY = y;
      if (x > maxX) maxX = x;
      if (y > maxY) maxY = y;
    }
  }
  return minX <= maxX ? { minX, minY, maxX, maxY } : null;
}

// Squared distance from (px, py) to the segment a-b.
function segmentDistance2(px, py, a, b) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length2 = dx * dx + dy * dy;
  let t = length2 > 0 ? ((px - a.x) * dx + (py - a.y) * dy) / length2 : 0;
  t = Math.max(0, Math.min(1, t));
  const ex = a.x + t * dx - px;
  const ey = a.y + t * dy - py;
  return ex * ex + ey * ey;
}

/**
 * Maps strokes into bitmap coordinates: cropped, scaled to fit, centred.
 * @param {Array<Array<{x:number,y:number}>>} strokes points in any units
 * @param {number} minExtent the smallest box side (same units) a drawing is
 *   scaled from, so a dot or a tiny scribble is not blown up to fill the box
 */
export function fitStrokes(strokes, { minExtent = 0, penRadius = DEFAULT_STYLE.penRadius, margin = DEFAULT_STYLE.margin } = {}) {
  const box = boundsOf(strokes);
  if (!box) return null;
  const width = box.maxX - box.minX;
  const height = box.maxY - box.minY;
  const side = Math.max(width, height, minExtent, 1e-9);
  const span = BITMAP - 2 * (penRadius + margin);
  const scale = span / side;
  const centerX = (box.minX + box.maxX) / 2;
  const centerY = (box.minY + box.maxY) / 2;
  return strokes
    .filter((stroke) => stroke.length > 0)
    .map((stroke) =>
      stroke.map(({ x, y }) => ({ x: BITMAP / 2 + (x - centerX) * scale, y: BITMAP / 2 + (y - centerY) * scale })),
    );
}

/** The 32x32 bitmap (Uint8Array, 1 = ink) of strokes already in bitmap coordinates. */
export function rasterize(fitted, penRadius = DEFAULT_STYLE.penRadius) {
  const bitmap = new Uint8Array(BITMAP * BITMAP);
  const radius2 = penRadius * penRadius;
  const segments = [];
  for (const stroke of fitted) {
    if (stroke.length === 1) segments.push([stroke[0], stroke[0]]);
    for (let i = 1; i < stroke.length; i++) segments.push([stroke[i - 1], stroke[i]]);
  }
  for (let row = 0; row < BITMAP; row++) {
    for (let col = 0; col < BITMAP; col++) {
      const px = col + 0.5;
      const py = row + 0.5;
      for (const [a, b] of segments) {
        if (segmentDistance2(px, py, a, b) <= radius2) {
          bitmap[row * BITMAP + col] = 1;
          break;
        }
      }
    }
  }
  return bitmap;
}

/** Pools a 32x32 bitmap to 8x8: inked pixels per 4x4 block / 16, row-major Float32Array. */
export function poolBitmap(bitmap) {
  const image = new Float32Array(GRID * GRID);
  for (let row = 0; row < BITMAP; row++) {
    for (let col = 0; col < BITMAP; col++) {
      if (bitmap[row * BITMAP + col]) image[Math.floor(row / BLOCK) * GRID + Math.floor(col / BLOCK)] += 1;
    }
  }
  for (let i = 0; i < image.length; i++) image[i] /= BLOCK * BLOCK;
  return image;
}

/**
 * The 8x8 model input for a drawing, or null when nothing is drawn.
 * @param {Array<Array<{x:number,y:number}>>} strokes
 * @param {{minExtent?: number, penRadius?: number, margin?: number}} [options]
 * @returns {Float32Array|null} 64 values in [0, 1], row-major
 */
export function strokesToDigit(strokes, options = {}) {
  const style = { ...DEFAULT_STYLE, ...options };
  const fitted = fitStrokes(strokes, style);
  if (!fitted) return null;
  return poolBitmap(rasterize(fitted, style.penRadius));
}
