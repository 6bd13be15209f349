/** The small number on a header icon (none at 0); the icon's accessible name says the count in words. */
export function CountBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span
      aria-hidden="true"
      className="absolute -top-0.5 -right-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-coral-600 px-1 text-xs leading-none font-bold text-white"
    >
      {count > 99 ? "99+" : count}
    </span>
  );
}
