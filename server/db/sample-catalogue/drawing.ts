/**
 * The sample pictures as SVG: a soft background in the product's colour (or its category's),
 * the category's motif framed differently per view, and the product's name. sharp renders them.
 */
import type { SampleColour } from "./define";
import { drawCategoryShape, drawPlaceholderShape } from "./shapes";

/** Side of the generated sample pictures; the largest variant is 800 px wide. */
export const sourceImageSize = 800;

export type ProductImageSpec = {
  /** Printed on the picture, wrapped on up to three lines. */
  label: string;
  colour: SampleColour | null;
  categorySlug: string;
  /** 0-4: each view frames the same motif differently, so a gallery does not repeat itself. */
  view: number;
};

type Palette = { background: string; glow: string; fill: string; accent: string; text: string };

const colourPalettes: Record<SampleColour, Palette> = {
  white: { background: "#efe9e1", glow: "#faf7f2", fill: "#ffffff", accent: "#d9cfc2", text: "#6b5d4f" },
  black: { background: "#e4e4e7", glow: "#f4f4f5", fill: "#3b3b42", accent: "#8b8b94", text: "#2f2f35" },
  brown: { background: "#efe3d6", glow: "#f9f3ec", fill: "#8c6b4f", accent: "#c9a887", text: "#5a4330" },
  blue: { background: "#dfe9f2", glow: "#f2f7fb", fill: "#4f7fa8", accent: "#9dbbd6", text: "#2f4f6b" },
};

const categoryPalettes: Record<string, Palette> = {
  "A-spasso": { background: "#e3ede5", glow: "#f4f8f4", fill: "#6f9a7c", accent: "#b5cfbc", text: "#3c5a45" },
  Bagnetto: { background: "#dff0f2", glow: "#f3fafb", fill: "#5aa3ae", accent: "#a9d5db", text: "#2f5f66" },
  arredamento: { background: "#f1e9dd", glow: "#faf6f0", fill: "#b08c64", accent: "#dcc7ab", text: "#5f4a33" },
  sicurezza: { background: "#eceee0", glow: "#f8f9f1", fill: "#8a9a5b", accent: "#c7d0a6", text: "#4a5330" },
  "gioco-e-relax": { background: "#f7e8e0", glow: "#fcf5f1", fill: "#e0876a", accent: "#f0c2b1", text: "#7a3f2c" },
  abbigliamento: { background: "#f3e6ee", glow: "#fbf5f8", fill: "#c07a9b", accent: "#e4bfd0", text: "#6b3a52" },
  pappa: { background: "#f6f0dc", glow: "#fcf9ee", fill: "#d4a94a", accent: "#ecd7a0", text: "#6b5220" },
};

const neutralPalette: Palette = { background: "#eeeae5", glow: "#f8f6f3", fill: "#b9afa4", accent: "#ddd6ce", text: "#5e554c" };

function choosePalette(spec: ProductImageSpec): Palette {
  if (spec.colour) return colourPalettes[spec.colour];
  return categoryPalettes[spec.categorySlug] ?? neutralPalette;
}

function escapeXml(text: string) {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function wrapLabel(label: string, maxChars = 24, maxLines = 3): string[] {
  const lines: string[] = [];
  for (const word of label.split(/\s+/)) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= maxChars) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, maxChars - 1)}…`;
  return kept;
}

/** Where the 400x400 motif sits for each view: centred, close-up, mirrored, ringed by dots, on a badge. */
const viewTransforms = [
  "translate(200 110)",
  "translate(120 40) scale(1.4)",
  "translate(600 110) scale(-1 1)",
  "translate(250 170) scale(0.75)",
  "translate(240 150) scale(0.8)",
];

export function renderProductSvg(spec: ProductImageSpec): string {
  const palette = choosePalette(spec);
  const view = ((spec.view % viewTransforms.length) + viewTransforms.length) % viewTransforms.length;
  const lines = wrapLabel(spec.label);
  const lineHeight = 50;
  const firstBaseline = 720 - (lines.length - 1) * lineHeight;
  const backdrop =
    view === 3
      ? Array.from({ length: 12 }, (_, i) => {
          const angle = (i / 12) * Math.PI * 2;
          return `<circle cx="${400 + Math.cos(angle) * 300}" cy="${320 + Math.sin(angle) * 230}" r="10" fill="${palette.accent}"/>`;
        }).join("")
      : view === 4
        ? `<circle cx="400" cy="310" r="230" fill="${palette.glow}" stroke="${palette.accent}" stroke-width="6"/>`
        : "";
  const text = lines.map((line, i) => `<text x="400" y="${firstBaseline + i * lineHeight}">${escapeXml(line)}</text>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${sourceImageSize}" height="${sourceImageSize}" viewBox="0 0 800 800">
<defs><radialGradient id="bg" cx="50%" cy="40%" r="75%"><stop offset="0" stop-color="${palette.glow}"/><stop offset="1" stop-color="${palette.background}"/></radialGradient></defs>
<rect width="800" height="800" fill="url(#bg)"/>
<ellipse cx="400" cy="560" rx="230" ry="26" fill="${palette.accent}" opacity="0.45"/>
${backdrop}
<g transform="${viewTransforms[view]}">${drawCategoryShape(spec.categorySlug, palette)}</g>
<g font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="40" font-weight="600" fill="${palette.text}" text-anchor="middle">${text}</g>
</svg>`;
}

export function renderPlaceholderSvg() {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 800 800">
<rect width="800" height="800" fill="${neutralPalette.background}"/>
<g transform="translate(200 200)">${drawPlaceholderShape(neutralPalette)}</g>
</svg>`;
}
