// The public header (docs/product.md, Screens): logo, main links, cart, the account
// area, and a collapsible menu on phones. Under 768 px it slides away while
// the person scrolls down and comes back when they scroll up.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { Avatar } from '../../components/avatar';
import { CartIcon, CloseIcon, LogoutIcon, MenuIcon } from '../../components/icons';
import { Logo } from '../../components/logo';
import { useLocalDb } from '../../lib/sync/provider';
import { useSession } from '../../lib/session';
import { useSignOutAsking } from '../../components/sign-out';
import { itemCount, useCart } from '../../lib/cart';
import { displayName, type User } from '../../lib/account';
import { useDismiss } from '../../lib/use-dismiss';

// Loaded with the sync engine, only for signed-in people.
const SyncStatus = lazy(async () => ({ default: (await import('../../components/sync-status')).SyncStatus }));
const NotificationBell = lazy(async () => ({
  default: (await import('../../components/notification-bell')).NotificationBell,
}));

const MAIN_LINKS = [
  ['about', paths.about],
  ['programs', paths.programs],
  ['marketplace', paths.marketplace],
  ['prices', paths.prices],
  ['training', paths.training],
  ['news', paths.news],
] as const;

/** The phone's menu has room for the cooperatives too (a wide screen's header has not:
 * in French it passed 1,280 px; the footer links them there). */
const MENU_LINKS = [...MAIN_LINKS.slice(0, 4), ['cooperatives', paths.cooperatives], ...MAIN_LINKS.slice(4)] as const;

/** How far down a reader scrolls from where the header was brought back before it slides away again. */
const REVEAL_SLACK = 48;

/** Slides the header away while the reader scrolls down a phone's screen, back when
 * they scroll up, and back whenever `reveal` changes (the cart's count: the button that
 * added to it is usually far down the page, and the cart is then one tap away). */
function useHideOnScroll(keepVisible: boolean, reveal: unknown): boolean {
  const [hidden, setHidden] = useState(false);
  // Where the page was when `reveal` last brought the header back: the scroll that
  // brought the button into view may be reported just after its tap.
  const revealedAt = useRef(0);
  useEffect(() => {
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      const down = y > last && y > 64 && y > revealedAt.current + REVEAL_SLACK;
      setHidden(!keepVisible && window.innerWidth < 768 && down);
      last = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [keepVisible]);
  useEffect(() => {
    revealedAt.current = window.scrollY;
    setHidden(false);
  }, [reveal]);
  return hidden;
}

export function Header() {
  const { t } = useTranslation();
  const count = itemCount(useCart());
  const { user, status } = useSession();
  const db = useLocalDb();
  const { signOut, dialog: signOutDialog } = useSignOutAsking();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const hidden = useHideOnScroll(menuOpen, count);
  useEffect(() => {
    setMenuOpen(false);
  }, [pathname]);

  return (
    <header className={`site-header${hidden ? ' is-hidden' : ''}${user ? ' signed-in' : ''}`}>
      <div className="header-inner">
        <Link to={paths.home} className="brand" aria-label={t('nav.home_label')}>
          <Logo />
        </Link>
        <nav className="main-nav desktop-only" aria-label={t('nav.main')}>
          {MAIN_LINKS.map(([key, to]) => (
            <NavLink key={key} to={to}>
              {t(`nav.${key}`)}
            </NavLink>
          ))}
        </nav>
        <div className="header-actions">
          {db && (
            <Suspense fallback={null}>
              <SyncStatus db={db} />
              <NotificationBell db={db} onSection={(id) => void navigate(`${paths.dashboard}?section=${id}`)} />
            </Suspense>
          )}
          <Link
            to={paths.cart}
            className="icon-button cart-link"
            aria-label={count > 0 ? t('nav.cart_count', { count }) : t('nav.cart')}
          >
            <CartIcon />
            {count > 0 && (
              <span className="cart-badge" aria-hidden="true">
                {count}
              </span>
            )}
          </Link>
          {user && <UserMenu user={user} onSignOut={signOut} />}
          {!user && status === 'ready' && (
            <div className="auth-links desktop-only">
              <Link to={paths.login} className="button secondary small">
                {t('nav.login')}
              </Link>
              <Link to={paths.register} className="button small">
                {t('nav.register')}
              </Link>
            </div>
          )}
          <button
            type="button"
            className="icon-button mobile-only"
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            aria-label={menuOpen ? t('nav.close_menu') : t('nav.open_menu')}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>
      </div>
      {menuOpen && (
        <nav id="mobile-menu" className="mobile-menu mobile-only" aria-label={t('nav.main')}>
          {MENU_LINKS.map(([key, to]) => (
            <NavLink key={key} to={to}>
              {t(`nav.${key}`)}
            </NavLink>
          ))}
          <NavLink to={paths.contact}>{t('nav.contact')}</NavLink>
          {user ? (
            <>
              <NavLink to={paths.dashboard}>{t('nav.dashboard')}</NavLink>
              <NavLink to={paths.profile}>{t('nav.profile')}</NavLink>
              <button type="button" className="menu-button" onClick={signOut}>
                {t('nav.logout')}
              </button>
            </>
          ) : (
            <div className="auth-links">
              <Link to={paths.login} className="button secondary">
                {t('nav.login')}
              </Link>
              <Link to={paths.register} className="button">
                {t('nav.register')}
              </Link>
            </div>
          )}
        </nav>
      )}
      {signOutDialog}
    </header>
  );
}

function UserMenu({ user, onSignOut }: { user: User; onSignOut(): void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const closeMenu = useCallback(() => setOpen(false), []);
  const { pathname } = useLocation();
  useEffect(() => {
    setOpen(false);
  }, [pathname]);
  useDismiss(open, ref, closeMenu);
  return (
    <div className="user-menu" ref={ref}>
      <button
        type="button"
        className="user-button"
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen((o) => !o)}
      >
        <Avatar url={user.avatar_url} size={32} />
        <span className="user-name desktop-only">{displayName(user)}</span>
        <span className="visually-hidden">{t('nav.account_menu')}</span>
      </button>
      {open && (
        <div className="user-dropdown">
          <Link to={paths.dashboard}>{t('nav.dashboard')}</Link>
          <Link to={paths.profile}>{t('nav.profile')}</Link>
          <Link to={paths.orders}>{t('nav.orders')}</Link>
          <button type="button" className="menu-button" onClick={onSignOut}>
            <LogoutIcon /> {t('nav.logout')}
          </button>
        </div>
      )}
    </div>
  );
}
