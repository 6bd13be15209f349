import { useTranslation } from "react-i18next";
import { Form, Link, useLocation } from "react-router";
import { localizedHref, type Locale } from "#common/locale.ts";
import type { ShellUser } from "#server/accounts/session-user.ts";
import { useRootData } from "#app/lib/root-data.ts";
import { UserIcon } from "./icons";
import { useDisclosure } from "./use-disclosure";

export type { ShellUser };

const itemClass = "block rounded-lg px-3 py-2 text-left hover:bg-brand-50 hover:text-brand-800";

/** Logged out: login / register. Logged in: the user's name (to the account), purchases, birth lists, logout. */
export function AccountMenu({ locale }: { locale: Locale }) {
  const { t } = useTranslation();
  const user = useRootData()?.user ?? null;
  const { pathname, search } = useLocation();
  const { detailsProps, summaryProps } = useDisclosure();
  // After logging in, come back to the page the menu was opened on.
  const here = `${pathname}${search}`;
  const loginHref = `${localizedHref("/login-register", locale)}${/\/(login-register|logout)$/.test(pathname) ? "" : `?${new URLSearchParams({ redirectTo: here })}`}`;
  return (
    <details {...detailsProps} className="relative">
      <summary {...summaryProps} className="grid size-11 place-items-center rounded-full hover:bg-brand-50">
        <UserIcon />
        <span className="sr-only">{user ? t("account.menuOf", { name: user.name }) : t("account.menu")}</span>
      </summary>
      <div className="absolute right-0 z-40 mt-2 w-60 rounded-2xl border border-brand-100 bg-white p-2 shadow-card">
        {user ? (
          <ul>
            <li>
              <Link to={localizedHref("/my-account", locale)} className={`${itemClass} font-semibold break-words`}>
                {user.name}
              </Link>
            </li>
            <li>
              <Link to={localizedHref("/shopping", locale)} className={itemClass}>
                {t("account.purchases")}
              </Link>
            </li>
            <li>
              <Link to={localizedHref("/carta-fedelta", locale)} className={itemClass}>
                {t("account.loyaltyCard")}
              </Link>
            </li>
            <li>
              <Link to={localizedHref("/crea-lista-nascita", locale)} className={itemClass}>
                {t("account.giftLists")}
              </Link>
            </li>
            {user.role === "admin" && (
              <li>
                <Link to={localizedHref("/admin", locale)} className={itemClass}>
                  {t("account.admin")}
                </Link>
              </li>
            )}
            <li>
              <Form method="post" action={localizedHref("/logout", locale)}>
                <button type="submit" className={`${itemClass} w-full`}>
                  {t("account.logout")}
                </button>
              </Form>
            </li>
          </ul>
        ) : (
          <ul>
            <li>
              <Link to={loginHref} className={`${itemClass} font-semibold`}>
                {t("account.login")}
              </Link>
            </li>
            <li>
              <Link to={`${localizedHref("/login-register", locale)}#register-title`} className={itemClass}>
                {t("account.register")}
              </Link>
            </li>
          </ul>
        )}
      </div>
    </details>
  );
}
