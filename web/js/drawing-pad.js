// A canvas the visitor draws on with a mouse, a finger or a pen (pointer
// events). Keeps the drawing as strokes (lists of points in CSS pixels) and
// paints them with a round pen; calls onChange(strokes) at most once per
// animation frame while drawing, and when cleared.

const PEN_WIDTH = 0.075; // of the canvas width
const INK = '#1d2433';

export class DrawingPad {
  #canvas;
  #context;
  #strokes = [];
  #active = null; // the stroke being drawn and its pointer id
  #frame = 0;
  #onChange;

  /** @param {HTMLCanvasElement} canvas @param {(strokes) => void} onChange */
  constructor(canvas, onChange) {
    this.#canvas = canvas;
    this.#context = canvas.getContext('2d');
    this.#onChange = onChange;
    canvas.addEventListener('pointerdown', (event) => this.#down(event));
    canvas.addEventListener('pointermove', (event) => this.#move(event));
    canvas.addEventListener('pointerup', (event) => this.#up(event));
    canvas.addEventListener('pointercancel', (event) => this.#up(event));
    new ResizeObserver(() => this.#resize()).observe(canvas);
    this.#resize();
  }

  /** The strokes drawn so far (points in CSS pixels of the canvas). */
  get strokes() {
    return this.#strokes;
  }

  /** The canvas size in CSS pixels. */
  get size() {
    return { width: this.#canvas.clientWidth, height: this.#canvas.clientHeight };
  }

  clear() {
    this.#strokes = [];
    this.#active = null;
    this.#paint();
    this.#changed();
  }

  #point(event) {
    const box = this.#canvas.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  }

  #down(event) {
    if (event.button !== 0 && event.pointerType === 'mouse') return;
    event.preventDefault();
    this.#canvas.setPointerCapture(event.pointerId);
    const stroke = [this.#point(event)];
    this.#strokes.push(stroke);
    this.#active = { stroke, pointerId: event.pointerId };
    this.#paint();
    this.#schedule();
  }

  #move(event) {
    if (!this.#active || event.pointerId !== this.#active.pointerId) return;
    event.preventDefault();
    const events = typeof event.getCoalescedEvents === 'function' ? event.getCoalescedEvents() : [];
    for (const e of events.length ? events : [event]) this.#active.stroke.push(this.#point(e));
    this.#paint();
    this.#schedule();
  }

  #up(event) {
    if (!this.#active || event.pointerId !== this.#active.pointerId) return;
    this.#active = null;
    this.#changed();
  }

  #schedule() {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#changed();
    });
  }

  #changed() {
    this.#onChange(this.#strokes);
  }

  #resize() {
    const ratio = window.devicePixelRatio || 1;
    const { width, height } = this.size;
    this.#canvas.width = Math.max(1, Math.round(width * ratio));
    this.#canvas.height = Math.max(1, Math.round(height * ratio));
    this.#context.setTransform(ratio, 0, 0, ratio, 0, 0);
    this.#paint();
  }

  #paint() {
    const context = this.#context;
    const { width, height } = this.size;
    context.clearRect(0, 0, width, height);
    context.strokeStyle = INK;
    context.fillStyle = INK;
    context.lineWidth = PEN_WIDTH * width;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    for (const stroke of this.#strokes) {
      if (stroke.length === 1) {
        context.beginPath();
        context.arc(stroke[0].x, stroke[0].y, context.lineWidth / 2, 0, 2 * Math.PI);
        context.fill();
        continue;
      }
      context.beginPath();
      context.moveTo(stroke[0].x, stroke[0].y);
      for (const point of stroke.slice(1)) context.lineTo(point.x, point.y);
      context.stroke();
    }
  }
}
