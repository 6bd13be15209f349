import { Link } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";

/** The shop's mark (a smiling face in a heart) and name, linking home. */
export function ShopLogo({ locale, shopName }: { locale: Locale; shopName: string }) {
  return (
    <Link to={localizedHref("/", locale)} className="flex shrink-0 items-center gap-2 rounded-lg py-1 text-brand-800">
      <svg width="40" height="40" viewBox="0 0 40 40" aria-hidden="true" focusable="false" className="shrink-0">
        <path d="M20 35S5 26.5 5 15.5C5 10.5 8.7 7 13 7c3 0 5.5 1.6 7 4 1.5-2.4 4-4 7-4 4.3 0 8 3.5 8 8.5C35 26.5 20 35 20 35Z" fill="#ffc6b3" />
        <circle cx="15" cy="17" r="1.8" fill="#0e554e" />
        <circle cx="25" cy="17" r="1.8" fill="#0e554e" />
        <path d="M14.5 22.5c1.5 2 3.3 3 5.5 3s4-1 5.5-3" fill="none" stroke="#0e554e" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span className="text-xl leading-tight font-extrabold tracking-tight sm:text-2xl">{shopName}</span>
    </Link>
  );
}
