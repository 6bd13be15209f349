import type { ReactNode } from "react";
import { Icon, type IconProps } from "./icons";

// Pictograms of the shop's categories, by slug (home tiles, mega menu).

function StrollerIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M4 4h2l1.5 9h10.5a5 5 0 0 0-5-5h-2.5V4a8 8 0 0 1 8.5 8" />
      <circle cx="8.5" cy="18.5" r="1.8" />
      <circle cx="16.5" cy="18.5" r="1.8" />
    </Icon>
  );
}

function BathIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M3 12h18v2a5 5 0 0 1-5 5H8a5 5 0 0 1-5-5v-2ZM6 12V6a2 2 0 0 1 3.7-1M7 19l-1 2M17 19l1 2" />
      <circle cx="12" cy="8" r="1" />
      <circle cx="15" cy="6" r="0.8" />
    </Icon>
  );
}

function CribIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M3 5v15M21 5v15M3 9h18M3 17h18M7 9v8M11 9v8M15 9v8M19 9v8" />
    </Icon>
  );
}

function ShieldIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M12 3 5 6v5c0 4.5 3 8.3 7 10 4-1.7 7-5.5 7-10V6l-7-3Z" />
      <path d="m9 12 2 2 4-4" />
    </Icon>
  );
}

function BlocksIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <rect x="4" y="12" width="7" height="7" rx="1" />
      <rect x="13" y="12" width="7" height="7" rx="1" />
      <path d="M12 3.5 16 10H8l4-6.5Z" />
    </Icon>
  );
}

function TagIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M3 12V4h8l10 10-8 8L3 12Z" />
      <circle cx="7.5" cy="8.5" r="1.5" />
    </Icon>
  );
}

function BodysuitIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M9 3c0 1.7 1.3 3 3 3s3-1.3 3-3l5 3-2 4-2-1v7l-2 4h-4l-2-4V9l-2 1-2-4 5-3Z" />
    </Icon>
  );
}

function BottleIcon(props: IconProps) {
  return (
    <Icon {...props}>
      <path d="M10 2h4M10.5 2v3L8 8v12a2 2 0 0 0 2 2h4a2 2 0 0 0 2-2V8l-2.5-3V2M8 12h3M8 16h3" />
    </Icon>
  );
}

const categoryIcons: Record<string, (props: IconProps) => ReactNode> = {
  "A-spasso": StrollerIcon,
  Bagnetto: BathIcon,
  arredamento: CribIcon,
  sicurezza: ShieldIcon,
  "gioco-e-relax": BlocksIcon,
  offerte: TagIcon,
  abbigliamento: BodysuitIcon,
  pappa: BottleIcon,
};

/** The pictogram of a category (a tag for a category the shop adds later). */
export function CategoryIcon({ slug, ...props }: IconProps & { slug: string }) {
  const Pictogram = categoryIcons[slug] ?? TagIcon;
  return <Pictogram {...props} />;
}
