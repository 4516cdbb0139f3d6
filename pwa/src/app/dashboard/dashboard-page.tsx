// The dashboard shell (docs/product.md, Screens): a side navigation, fixed on wide
// screens and sliding over on narrow ones; sections switch in place.
import { Suspense, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../lib/paths';
import { Avatar } from '../../components/avatar';
import { ChevronLeft, CloseIcon, LogoutIcon, MenuIcon } from '../../components/icons';
import { Logo } from '../../components/logo';
import { useSession } from '../../lib/session';
import { useSignOutAsking } from '../../components/sign-out';
import { displayName, type User } from '../../lib/account';
import { LanguagePicker } from '../../components/language-picker';
import { useLocalDb } from '../../lib/sync/provider';
import { ErrorBoundary } from '../../components/error-boundary';
import { lazyCode } from '../../lib/code-wait';
import { Spinner } from '../../components/spinner';
import { SyncStatus } from '../../components/sync-status';
import { NotificationBell } from '../../components/notification-bell';
import { ApplicationsSection } from '../../features/applications/applications-section';
import { FarmersSection } from '../../features/agent/farmers-section';
import { PricesSection } from '../../features/agent/prices-section';
import { CooperativeSection } from '../../features/cooperatives/cooperative-section';
import { ProductsSection } from '../../features/products/products-section';
import { SalesSection } from '../../features/sales/sales-section';
import { OrdersList } from '../../features/orders/orders-page';
import { EarningsSection } from '../../features/earnings/earnings-section';
import { TrainingSection } from '../../features/training/training-section';
import { WishlistSection } from '../../features/wishlist/wishlist-section';
import { DashboardFigures } from './figures';
import { AdminHome, RecentActivity } from './activity';
import { ProfilePanel } from '../../features/profile/profile-panel';
import { QUICK_ACTIONS, SECTIONS, dashboardKind, type DashboardKind, type Section, type SectionId } from './sections';
import { usePageHead } from '../../lib/page-head';
import './dashboard.css';

// The drawn basic phone is only downloaded by those who open it.
const PhoneMenu = lazyCode(() =>
  import('../../features/basic-phone/phone-menu').then((m) => ({ default: m.PhoneMenu })),
);

// Admin screens are only downloaded by admins.
const AdminApplications = lazyCode(() =>
  import('../../features/admin/admin-applications').then((m) => ({ default: m.AdminApplications })),
);
const AdminUsers = lazyCode(() => import('../../features/admin/admin-users').then((m) => ({ default: m.AdminUsers })));
const AdminOrders = lazyCode(() =>
  import('../../features/admin/admin-orders').then((m) => ({ default: m.AdminOrders })),
);
const AdminProducts = lazyCode(() =>
  import('../../features/admin/admin-products').then((m) => ({ default: m.AdminProducts })),
);
const AdminBlogs = lazyCode(() => import('../../features/admin/admin-blogs').then((m) => ({ default: m.AdminBlogs })));
const AdminAnalytics = lazyCode(() =>
  import('../../features/admin/admin-analytics').then((m) => ({ default: m.AdminAnalytics })),
);
const AdminSettings = lazyCode(() =>
  import('../../features/admin/admin-settings').then((m) => ({ default: m.AdminSettings })),
);
const AdminCooperatives = lazyCode(() =>
  import('../../features/admin/admin-cooperatives').then((m) => ({ default: m.AdminCooperatives })),
);
const AdminPrices = lazyCode(() =>
  import('../../features/admin/admin-prices').then((m) => ({ default: m.AdminPrices })),
);
const AdminCourses = lazyCode(() =>
  import('../../features/admin/admin-courses').then((m) => ({ default: m.AdminCourses })),
);

export function DashboardPage() {
  usePageHead('dashboard');
  const { t } = useTranslation();
  const { user } = useSession();
  const db = useLocalDb();
  const { signOut, dialog: signOutDialog } = useSignOutAsking();
  // `?section=` opens a section (a notification's link).
  const [params] = useSearchParams();
  const [active, setActive] = useState<SectionId>(() => (params.get('section') as SectionId | null) ?? 'home');
  const [navOpen, setNavOpen] = useState(false);
  const contentRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    contentRef.current?.focus();
  }, [active]);
  if (!user) return null;
  const kind = dashboardKind(user.role);
  const sections = SECTIONS[kind];
  const section = sections.find((s) => s.id === active) ?? sections[0]!;

  const open = (id: SectionId) => {
    setActive(id);
    setNavOpen(false);
  };

  return (
    <div className="dashboard">
      <aside id="dashboard-nav" className={`sidebar${navOpen ? ' open' : ''}`} aria-label={t('dashboard.navigation')}>
        <div className="sidebar-head">
          <Link to={paths.home} aria-label={t('nav.home_label')}>
            <Logo />
          </Link>
          <button
            type="button"
            className="icon-button narrow-only"
            onClick={() => setNavOpen(false)}
            aria-label={t('nav.close_menu')}
          >
            <CloseIcon />
          </button>
        </div>
        <div className="sidebar-user">
          <Avatar url={user.avatar_url} size={44} />
          <div>
            <strong>{displayName(user)}</strong>
            <span className="muted">{t(`roles.${user.role}`)}</span>
          </div>
        </div>
        <nav>
          {sections.map((s) => (
            <button
              key={s.id}
              type="button"
              className="nav-item"
              aria-current={s.id === section.id ? 'page' : undefined}
              onClick={() => open(s.id)}
            >
              <s.icon /> {t(`dashboard.sections.${s.id}`)}
            </button>
          ))}
        </nav>
        <div className="sidebar-foot">
          <Link to={paths.home} className="nav-item">
            <ChevronLeft /> {t('dashboard.back_to_site')}
          </Link>
          <LanguagePicker />
          <button type="button" className="nav-item" onClick={signOut}>
            <LogoutIcon /> {t('nav.logout')}
          </button>
        </div>
      </aside>
      {navOpen && <div className="backdrop narrow-only" onClick={() => setNavOpen(false)} aria-hidden="true" />}
      <div className="dashboard-main">
        <header className="dashboard-topbar">
          <button
            type="button"
            className="icon-button narrow-only"
            aria-expanded={navOpen}
            aria-controls="dashboard-nav"
            onClick={() => setNavOpen(true)}
            aria-label={t('nav.open_menu')}
          >
            <MenuIcon />
          </button>
          <h1>{t(`dashboard.sections.${section.id}`)}</h1>
          {db && <SyncStatus db={db} />}
          {db && (
            <NotificationBell db={db} onSection={(id) => sections.some((s) => s.id === id) && open(id as SectionId)} />
          )}
        </header>
        <div className="dashboard-content" ref={contentRef} tabIndex={-1}>
          <SectionContent section={section} kind={kind} user={user} onOpen={open} />
        </div>
      </div>
      {signOutDialog}
    </div>
  );
}

function SectionContent({
  section,
  kind,
  user,
  onOpen,
}: {
  section: Section;
  kind: DashboardKind;
  user: User;
  onOpen(id: SectionId): void;
}) {
  const { t } = useTranslation();
  const db = useLocalDb();
  if (section.id === 'profile') return <ProfilePanel />;
  const loading = <Spinner label={t('common.loading')} />;
  if (section.id === 'phone') {
    return (
      <ErrorBoundary>
        <Suspense fallback={loading}>
          <PhoneMenu asAnyNumber={kind === 'admin'} ownNumber={user.phone_number ?? null} />
        </Suspense>
      </ErrorBoundary>
    );
  }
  if (
    kind === 'admin' &&
    (section.id === 'applications' ||
      section.id === 'users' ||
      section.id === 'orders' ||
      section.id === 'products' ||
      section.id === 'courses' ||
      section.id === 'blogs' ||
      section.id === 'analytics' ||
      section.id === 'prices' ||
      section.id === 'cooperative' ||
      section.id === 'settings')
  ) {
    const Screen = {
      applications: AdminApplications,
      users: AdminUsers,
      orders: AdminOrders,
      products: AdminProducts,
      courses: AdminCourses,
      blogs: AdminBlogs,
      analytics: AdminAnalytics,
      prices: AdminPrices,
      cooperative: AdminCooperatives,
      settings: AdminSettings,
    }[section.id];
    return (
      <ErrorBoundary>
        <Suspense fallback={loading}>
          <Screen />
        </Suspense>
      </ErrorBoundary>
    );
  }
  if (kind === 'farmer' && (section.id === 'products' || section.id === 'orders')) {
    if (!db) return loading;
    return (
      <ErrorBoundary>
        {section.id === 'products' ? (
          <ProductsSection db={db} farmerId={user.id} />
        ) : (
          <SalesSection db={db} farmerId={user.id} />
        )}
      </ErrorBoundary>
    );
  }
  if (kind === 'farmer' && section.id === 'earnings') {
    return (
      <ErrorBoundary>
        <EarningsSection />
      </ErrorBoundary>
    );
  }
  if (section.id === 'training') {
    if (!db) return loading;
    return (
      <ErrorBoundary>
        <TrainingSection db={db} />
      </ErrorBoundary>
    );
  }
  if (kind === 'customer' && section.id === 'wishlist') {
    return (
      <ErrorBoundary>
        <WishlistSection />
      </ErrorBoundary>
    );
  }
  if (kind === 'customer' && section.id === 'orders') {
    if (!db) return loading;
    return (
      <ErrorBoundary>
        <OrdersList db={db} />
      </ErrorBoundary>
    );
  }
  if (kind === 'agent' && section.id === 'prices') {
    if (!db) return loading;
    return (
      <ErrorBoundary>
        <PricesSection db={db} />
      </ErrorBoundary>
    );
  }
  if (section.id === 'cooperative') {
    if (!db) return loading;
    return (
      <ErrorBoundary>
        <CooperativeSection
          db={db}
          user={user}
          sales={(sellerId, title) => <SalesSection db={db} farmerId={sellerId} title={title} />}
        />
      </ErrorBoundary>
    );
  }
  if (section.id === 'farmers' || section.id === 'applications') {
    if (!db) return loading;
    return (
      <ErrorBoundary>
        {section.id === 'farmers' ? (
          <FarmersSection db={db} />
        ) : (
          <ApplicationsSection db={db} agent={kind === 'agent' ? { onNew: () => onOpen('farmers') } : undefined} />
        )}
      </ErrorBoundary>
    );
  }
  if (section.id === 'home') {
    return (
      <div className="dashboard-home">
        <section className="card welcome">
          <h2>{t('dashboard.welcome', { name: user.first_name || displayName(user) })}</h2>
          <p>{t(`dashboard.intro.${kind}`)}</p>
        </section>
        {kind === 'admin' ? (
          <AdminHome db={db} onOpen={onOpen} />
        ) : (
          db && <DashboardFigures db={db} kind={kind} userId={user.id} onOpen={onOpen} />
        )}
        <section aria-labelledby="dashboard-quick">
          <h2 id="dashboard-quick">{t('dashboard.quick_actions')}</h2>
          <div className="tiles">
            {QUICK_ACTIONS[kind].map((id) => {
              const target = SECTIONS[kind].find((s) => s.id === id);
              if (!target) return null;
              return (
                <button key={id} type="button" className="tile" onClick={() => onOpen(id)}>
                  <target.icon /> {t(`dashboard.sections.${id}`)}
                </button>
              );
            })}
          </div>
        </section>
        {kind !== 'admin' && db && <RecentActivity db={db} onOpen={onOpen} />}
      </div>
    );
  }
  // Every section of every dashboard has its screen above.
  return null;
}
