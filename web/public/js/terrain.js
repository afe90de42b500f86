// The walker's ground in 3-D: a square patch of the module's terrain as shaded tiles, with
// risers where terraces step and a skirt round the edge. The heights come from the module
// (reach_wasm_walker_ground_height); the picture is drawn once per view into an image of its
// own, since the ground does not move while the creature does.
export const TERRAIN_HALF = 6; // the patch is [-6, 6] × [-6, 6] world units
// A quarter of the steps terrain's terraces (1.5 wide), so tiles never straddle a step, and
// fine enough that the waves (4 long) look smooth.
const CELL = 0.375;
const CELLS = Math.round((2 * TERRAIN_HALF) / CELL);
// Heights are read this far inside a tile's corners, so a tile on a terrace takes that
// terrace's level and not the next one's.
const INSET = 1e-3;
const SKIRT_DEPTH = 0.35;
const LIGHT = (() => {
  const l = [-0.35, -0.55, 1];
  const n = Math.hypot(...l);
  return l.map((v) => v / n);
})();
const LOW = [203, 212, 225];
const HIGH = [238, 242, 247];
const GRID = 'rgba(100, 116, 139, 0.22)';

const sub = (a, b) => a.map((v, i) => v - b[i]);
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

export class Terrain {
  constructor(reach) {
    this.reach = reach;
    this.faces = [];
    this.image = document.createElement('canvas');
    this.drawnFor = '';
  }

  height(x, y) {
    return this.reach.groundHeight(x, y);
  }

  // Clamps a ground point into the patch.
  clamp(x, y) {
    const limit = TERRAIN_HALF - 0.5;
    return [Math.min(limit, Math.max(-limit, x)), Math.min(limit, Math.max(-limit, y))];
  }

  // Reads the module's ground afresh: call after the walker starts on new ground.
  rebuild() {
    const tiles = [];
    let low = Infinity, high = -Infinity;
    for (let i = 0; i < CELLS; i++) {
      tiles.push([]);
      for (let j = 0; j < CELLS; j++) {
        const x0 = -TERRAIN_HALF + i * CELL, y0 = -TERRAIN_HALF + j * CELL;
        const corner = (u, v) => {
          const x = x0 + u * CELL, y = y0 + v * CELL;
          return [x, y, this.height(x + (u ? -INSET : INSET), y + (v ? -INSET : INSET))];
        };
        // Counter-clockwise seen from above: (0, 0), (1, 0), (1, 1), (0, 1).
        const tile = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
        for (const p of tile) {
          low = Math.min(low, p[2]);
          high = Math.max(high, p[2]);
        }
        tiles[i].push(tile);
      }
    }
    const span = Math.max(high - low, 1e-6);
    const faces = [];
    for (let i = 0; i < CELLS; i++) {
      for (let j = 0; j < CELLS; j++) {
        const tile = tiles[i][j];
        const level = (tile.reduce((sum, p) => sum + p[2], 0) / 4 - low) / span;
        faces.push({ points: tile, color: shade(normalOf(tile), level), top: true });
        // Risers toward the next tile along x and along y, where the levels differ.
        if (i + 1 < CELLS) faces.push(...riser(tile[1], tile[2], tiles[i + 1][j][0], tiles[i + 1][j][3]));
        if (j + 1 < CELLS) faces.push(...riser(tile[3], tile[2], tiles[i][j + 1][0], tiles[i][j + 1][1]));
      }
    }
    // The skirt: the patch's four sides, down to below its lowest point.
    const base = low - SKIRT_DEPTH;
    for (let k = 0; k < CELLS; k++) {
      for (const [a, b] of [[tiles[k][0][0], tiles[k][0][1]], [tiles[k][CELLS - 1][3], tiles[k][CELLS - 1][2]],
        [tiles[0][k][0], tiles[0][k][3]], [tiles[CELLS - 1][k][1], tiles[CELLS - 1][k][2]]]) {
        faces.push(wall(a, b, [b[0], b[1], base], [a[0], a[1], base], 0.72));
      }
    }
    this.faces = faces;
    this.drawnFor = '';
  }

  // Draws the patch as the view sees it: from the kept image when the view has not changed.
  draw(ctx, view) {
    const { width, height } = ctx.canvas;
    const key = [view.yaw, view.pitch, view.scale, view.centerX, view.centerY, width, height].join();
    if (key !== this.drawnFor) {
      this.render(view, width, height, ctx.getTransform());
      this.drawnFor = key;
    }
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.image, 0, 0);
    ctx.restore();
  }

  render(view, width, height, transform) {
    Object.assign(this.image, { width, height });
    const ctx = this.image.getContext('2d');
    ctx.setTransform(transform);
    // Far faces first (painter's order).
    const projected = this.faces.map((face) => {
      const points = face.points.map((p) => view.project(p));
      const depth = points.reduce((sum, p) => sum + p[2], 0) / points.length;
      return { points, color: face.color, top: face.top, depth };
    });
    projected.sort((a, b) => a.depth - b.depth);
    ctx.lineJoin = 'round';
    for (const { points, color, top } of projected) {
      ctx.beginPath();
      points.forEach(([x, y], k) => (k === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
      ctx.closePath();
      ctx.fillStyle = color;
      ctx.fill();
      // Top faces show the tile grid, faintly, which shows the slopes; walls close the hairline
      // seams between neighbouring faces in their own colour.
      ctx.strokeStyle = top ? GRID : color;
      ctx.lineWidth = top ? 0.75 : 0.6;
      ctx.stroke();
    }
  }
}

function normalOf(tile) {
  const n = cross(sub(tile[2], tile[0]), sub(tile[3], tile[1]));
  const length = Math.hypot(...n);
  return n.map((v) => v / length);
}

// A colour between LOW and HIGH by level (0 to 1), lit by LIGHT from above.
function shade(normal, level) {
  const lit = 0.7 + 0.3 * Math.max(0, normal.reduce((sum, v, i) => sum + v * LIGHT[i], 0));
  const rgb = LOW.map((v, i) => Math.round((v + (HIGH[i] - v) * level) * lit));
  return `rgb(${rgb.join(', ')})`;
}

// A vertical face from the edge a–b down (or up) to the edge c–d, tinted by how it faces.
function wall(a, b, c, d, brightness) {
  const rgb = LOW.map((v) => Math.round(v * brightness));
  return { points: [a, b, c, d], color: `rgb(${rgb.join(', ')})`, top: false };
}

// The step between two tiles' shared edge (a–b on one, c–d on the other), if there is one.
function riser(a, b, c, d) {
  if (Math.abs(a[2] - c[2]) < 1e-3 && Math.abs(b[2] - d[2]) < 1e-3) return [];
  return [wall(a, b, d, c, 0.8)];
}
