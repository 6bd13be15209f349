import { code128cBars } from "#common/code128.ts";

/**
 * The card's number as a Code 128 barcode the till's scanner reads from a phone screen: black bars on
 * white with their quiet zones, scaled to the width it is given (crisp edges, no anti-aliased blur).
 */
export function LoyaltyCardBarcode({ number, label }: { number: string; label: string }) {
  const { bars, modules } = code128cBars(number);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${modules} 50`}
      preserveAspectRatio="none"
      shapeRendering="crispEdges"
      className="mx-auto block h-24 w-full max-w-sm bg-white"
      data-testid="loyalty-barcode"
    >
      <rect width={modules} height={50} fill="#fff" />
      {bars.map(([x, width]) => (
        <rect key={x} x={x} width={width} height={50} fill="#000" />
      ))}
    </svg>
  );
}
