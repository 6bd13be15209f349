/**
 * Flat motifs for the generated sample pictures, one per category, each drawn in a 400x400 box.
 * Kept deliberately simple: soft shapes in two tones, like a catalogue's placeholder artwork.
 */

export type ShapePalette = { fill: string; accent: string; text: string };

const stroke = (palette: ShapePalette) => `stroke="${palette.text}" stroke-opacity="0.35" stroke-width="4"`;

function drawStroller(p: ShapePalette) {
  return `<path d="M70 210 A130 130 0 0 1 200 80 L200 210 Z" fill="${p.accent}" ${stroke(p)}/>
<rect x="70" y="200" width="250" height="80" rx="40" fill="${p.fill}" ${stroke(p)}/>
<path d="M320 215 L372 110" stroke="${p.text}" stroke-width="14" stroke-linecap="round" fill="none"/>
<circle cx="130" cy="330" r="38" fill="${p.fill}" ${stroke(p)}/><circle cx="130" cy="330" r="14" fill="${p.accent}"/>
<circle cx="280" cy="330" r="38" fill="${p.fill}" ${stroke(p)}/><circle cx="280" cy="330" r="14" fill="${p.accent}"/>`;
}

function drawBathtub(p: ShapePalette) {
  return `<circle cx="150" cy="110" r="26" fill="${p.accent}"/><circle cx="205" cy="70" r="16" fill="${p.accent}"/><circle cx="250" cy="115" r="20" fill="${p.accent}"/>
<rect x="40" y="170" width="320" height="26" rx="13" fill="${p.accent}" ${stroke(p)}/>
<path d="M60 196 H340 Q340 320 240 320 H160 Q60 320 60 196 Z" fill="${p.fill}" ${stroke(p)}/>
<rect x="110" y="318" width="18" height="40" rx="9" fill="${p.text}" opacity="0.5"/><rect x="272" y="318" width="18" height="40" rx="9" fill="${p.text}" opacity="0.5"/>`;
}

function drawCrib(p: ShapePalette) {
  const bars = Array.from({ length: 7 }, (_, i) => `<rect x="${100 + i * 32}" y="150" width="12" height="150" rx="6" fill="${p.accent}"/>`).join("");
  return `<rect x="60" y="90" width="30" height="280" rx="12" fill="${p.fill}" ${stroke(p)}/>
<rect x="310" y="90" width="30" height="280" rx="12" fill="${p.fill}" ${stroke(p)}/>
<rect x="80" y="130" width="240" height="24" rx="12" fill="${p.fill}" ${stroke(p)}/>
${bars}
<rect x="80" y="290" width="240" height="36" rx="14" fill="${p.fill}" ${stroke(p)}/>`;
}

function drawShield(p: ShapePalette) {
  return `<path d="M200 50 L335 100 V200 Q335 305 200 365 Q65 305 65 200 V100 Z" fill="${p.fill}" ${stroke(p)}/>
<path d="M140 205 L185 250 L265 165" stroke="${p.accent}" stroke-width="26" stroke-linecap="round" stroke-linejoin="round" fill="none"/>`;
}

function drawBall(p: ShapePalette) {
  return `<circle cx="190" cy="220" r="140" fill="${p.fill}" ${stroke(p)}/>
<path d="M60 180 Q190 250 320 180" stroke="${p.accent}" stroke-width="22" fill="none"/>
<path d="M120 95 Q200 220 150 350" stroke="${p.accent}" stroke-width="22" fill="none"/>
<path d="M330 40 L342 72 L376 74 L350 95 L359 128 L330 110 L301 128 L310 95 L284 74 L318 72 Z" fill="${p.accent}" ${stroke(p)}/>`;
}

function drawBodysuit(p: ShapePalette) {
  return `<path d="M140 60 Q200 100 260 60 L350 110 L320 180 L285 165 L285 290 Q285 340 240 350 L225 300 H175 L160 350 Q115 340 115 290 L115 165 L80 180 L50 110 Z" fill="${p.fill}" ${stroke(p)}/>
<path d="M150 62 Q200 120 250 62" stroke="${p.accent}" stroke-width="12" fill="none"/>
<circle cx="200" cy="180" r="9" fill="${p.accent}"/><circle cx="200" cy="215" r="9" fill="${p.accent}"/><circle cx="200" cy="250" r="9" fill="${p.accent}"/>`;
}

function drawBottle(p: ShapePalette) {
  const marks = [200, 240, 280].map((y) => `<rect x="165" y="${y}" width="40" height="8" rx="4" fill="${p.accent}"/>`).join("");
  return `<path d="M178 40 Q200 20 222 40 L230 90 H170 Z" fill="${p.accent}" ${stroke(p)}/>
<rect x="150" y="88" width="100" height="40" rx="12" fill="${p.fill}" ${stroke(p)}/>
<rect x="135" y="126" width="130" height="240" rx="40" fill="${p.fill}" ${stroke(p)}/>
${marks}`;
}

function drawTag(p: ShapePalette) {
  return `<path d="M80 200 L200 80 H330 V210 L210 330 Z" fill="${p.fill}" ${stroke(p)}/><circle cx="290" cy="120" r="18" fill="${p.accent}"/>`;
}

const shapesByCategory: Record<string, (palette: ShapePalette) => string> = {
  "A-spasso": drawStroller,
  Bagnetto: drawBathtub,
  arredamento: drawCrib,
  sicurezza: drawShield,
  "gioco-e-relax": drawBall,
  abbigliamento: drawBodysuit,
  pappa: drawBottle,
  offerte: drawTag,
};

export function drawCategoryShape(categorySlug: string, palette: ShapePalette): string {
  return (shapesByCategory[categorySlug] ?? drawTag)(palette);
}

/** A framed landscape, the usual "no picture" sign, without words so it suits both languages. */
export function drawPlaceholderShape(palette: ShapePalette): string {
  return `<rect x="20" y="60" width="360" height="280" rx="28" fill="none" stroke="${palette.fill}" stroke-width="18"/>
<circle cx="270" cy="140" r="32" fill="${palette.fill}"/>
<path d="M50 310 L150 190 L220 270 L260 225 L350 310 Z" fill="${palette.fill}"/>`;
}
