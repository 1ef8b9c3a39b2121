// Hand-made pen strokes of a few digits, as a visitor would draw them, in a
// unit box (x right, y down, 0..1). Shared by the Node test of the
// canvas-to-8x8 reduction and the browser test that draws them with the mouse.

// Points along an elliptic arc (angles in degrees, 0 = right, 90 = down).
function arc(cx, cy, rx, ry, fromDeg, toDeg, steps = 24) {
  const points = [];
  for (let i = 0; i <= steps; i++) {
    const t = ((fromDeg + ((toDeg - fromDeg) * i) / steps) * Math.PI) / 180;
    points.push({ x: cx + rx * Math.cos(t), y: cy + ry * Math.sin(t) });
  }
  return points;
}

const line = (...xy) => xy.map(([x, y]) => ({ x, y }));

/** digit -> strokes (arrays of {x, y}). */
export const DIGIT_STROKES = {
  0: [arc(0.5, 0.5, 0.28, 0.42, -90, 270, 40)],
  1: [line([0.38, 0.2], [0.55, 0.06], [0.55, 0.94])],
  2: [[...arc(0.5, 0.3, 0.26, 0.22, 190, 360 + 30, 20), ...line([0.2, 0.92], [0.82, 0.92])]],
  3: [[...arc(0.48, 0.28, 0.24, 0.2, 200, 450, 20), ...arc(0.48, 0.7, 0.28, 0.23, -90, 150, 20)]],
  4: [line([0.62, 0.06], [0.18, 0.64], [0.86, 0.64]), line([0.64, 0.36], [0.64, 0.95])],
  7: [line([0.18, 0.08], [0.82, 0.08], [0.42, 0.94])],
};
