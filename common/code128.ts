/**
 * Code 128 (ISO/IEC 15417) for the loyalty card's number, drawn as SVG bars: an even number of digits in
 * code set C (two digits a symbol), so the 12-digit card number stays short enough for a phone screen.
 * Browser-safe, no dependency.
 */

/** Bar and space widths in modules, bar first, for the symbol values 0 to 106 (106: stop with its final bar). */
const patterns = [
  "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
  "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
  "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
  "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
  "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
  "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
  "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
  "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
  "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
  "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
  "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
]; // prettier-ignore

const startC = 105;
const stop = 106;

/** The symbol values of `digits` in code set C: start, the pairs, the mod-103 check, stop. */
export function code128cValues(digits: string): number[] {
  if (!/^(?:[0-9]{2})+$/.test(digits)) throw new RangeError("code set C takes an even number of digits");
  const pairs = digits.match(/../g)!.map(Number);
  const check = (startC + pairs.reduce((sum, value, index) => sum + value * (index + 1), 0)) % 103;
  return [startC, ...pairs, check, stop];
}

/** The bars as [x, width] in modules, and the whole width with a 10-module quiet zone each side. */
export function code128cBars(digits: string): { bars: [x: number, width: number][]; modules: number } {
  const bars: [number, number][] = [];
  let x = 10;
  for (const value of code128cValues(digits)) {
    [...patterns[value]!].forEach((width, index) => {
      if (index % 2 === 0) bars.push([x, Number(width)]);
      x += Number(width);
    });
  }
  return { bars, modules: x + 10 };
}
