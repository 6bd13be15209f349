/**
 * Words of the shop's own products, Italian and English, for the generated catalogues of bench/search.mjs and
 * bench/scale.mjs: stemming and typo matching meet real vocabulary.
 */
export const productNouns: readonly (readonly [string, string])[] = [
  ["Passeggino", "stroller"],
  ["Culla", "crib"],
  ["Seggiolino auto", "car seat"],
  ["Biberon", "baby bottle"],
  ["Lettino", "cot"],
  ["Fasciatoio", "changing table"],
  ["Seggiolone", "high chair"],
  ["Marsupio", "baby carrier"],
  ["Box", "playpen"],
  ["Sdraietta", "bouncer"],
  ["Cancelletto", "safety gate"],
  ["Tutina", "sleepsuit"],
  ["Asciugamano", "towel"],
  ["Vaschetta", "baby bath"],
  ["Girello", "baby walker"],
  ["Materasso", "mattress"],
];

export const productAdjectives: readonly (readonly [string, string])[] = [
  ["leggero", "lightweight"],
  ["pieghevole", "foldable"],
  ["in legno", "wooden"],
  ["compatto", "compact"],
  ["da viaggio", "travel"],
  ["evolutivo", "convertible"],
  ["imbottito", "padded"],
  ["antiribaltamento", "anti-tip"],
  ["in cotone", "cotton"],
  ["regolabile", "adjustable"],
];
