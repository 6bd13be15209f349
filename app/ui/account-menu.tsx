import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { localizedHref, type Locale } from "#app/lib/locale.ts";
import { UserIcon } from "./icons";
import { useDisclosure } from "./use-disclosure";

export type ShellUser = { name: string };

const itemClass = "block rounded-lg px-3 py-2 text-left hover:bg-brand-50 hover:text-brand-800";

/** Logged out: login / register. Logged in: the user's name (to the account), purchases, birth lists, logout. */
export function AccountMenu({ user, locale }: { user: ShellUser | null; locale: Locale }) {
  const { t } = useTranslation();
  const { detailsProps, summaryProps } = useDisclosure();
  return (
    <details {...detailsProps} className="relative">
      <summary {...summaryProps} className="grid size-11 place-items-center rounded-full hover:bg-brand-50">
        <UserIcon />
        <span className="sr-only">{t("account.menu")}</span>
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-60 rounded-2xl border border-brand-100 bg-white p-2 shadow-card">
        {user ? (
          <ul>
            <li>
              <Link to={localizedHref("/my-account", locale)} className={`${itemClass} font-semibold`}>
                {user.name}
              </Link>
            </li>
            <li>
              <Link to={localizedHref("/shopping", locale)} className={itemClass}>
                {t("account.purchases")}
              </Link>
            </li>
            <li>
              <Link to={localizedHref("/crea-lista-nascita", locale)} className={itemClass}>
                {t("account.giftLists")}
              </Link>
            </li>
            <li>
              <form method="post" action="/logout">
                <button type="submit" className={`${itemClass} w-full`}>
                  {t("account.logout")}
                </button>
              </form>
            </li>
          </ul>
        ) : (
          <ul>
            <li>
              <Link to={localizedHref("/login-register", locale)} className={`${itemClass} font-semibold`}>
                {t("account.login")}
              </Link>
            </li>
            <li>
              <Link to={localizedHref("/login-register", locale)} className={itemClass}>
                {t("account.register")}
              </Link>
            </li>
          </ul>
        )}
      </div>
    </details>
  );
}
