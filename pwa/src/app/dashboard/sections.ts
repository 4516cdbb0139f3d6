// Which dashboard each role gets and which sections it has (docs/product.md, Screens).
import type { JSX } from 'react';
import {
  BookIcon,
  BoxIcon,
  ChartIcon,
  TagIcon,
  ClipboardIcon,
  HeartIcon,
  HomeIcon,
  NewsIcon,
  PhoneIcon,
  ReceiptIcon,
  SettingsIcon,
  StoreIcon,
  UserIcon,
  UsersIcon,
  WalletIcon,
} from '../../components/icons';
import type { Role } from '../../lib/account';

export type DashboardKind = 'admin' | 'farmer' | 'agent' | 'customer';
export type SectionId =
  | 'home'
  | 'applications'
  | 'users'
  | 'blogs'
  | 'products'
  | 'orders'
  | 'analytics'
  | 'settings'
  | 'profile'
  | 'earnings'
  | 'training'
  | 'wishlist'
  | 'farmers'
  | 'courses'
  | 'phone'
  | 'prices'
  | 'cooperative';

export interface Section {
  id: SectionId;
  icon: () => JSX.Element;
}

/** super_admin and admin share the admin dashboard: the admin API serves both (docs/decisions.md). */
export function dashboardKind(role: Role): DashboardKind {
  switch (role) {
    case 'super_admin':
    case 'admin':
      return 'admin';
    case 'farmer':
      return 'farmer';
    case 'field_agent':
      return 'agent';
    default:
      return 'customer';
  }
}

const home: Section = { id: 'home', icon: HomeIcon };
const profile: Section = { id: 'profile', icon: UserIcon };
/** The USSD menu of a basic phone, tried in the browser (docs/ussd.md). */
const phone: Section = { id: 'phone', icon: PhoneIcon };

export const SECTIONS: Record<DashboardKind, Section[]> = {
  admin: [
    home,
    { id: 'applications', icon: ClipboardIcon },
    { id: 'users', icon: UsersIcon },
    { id: 'blogs', icon: NewsIcon },
    { id: 'products', icon: BoxIcon },
    { id: 'orders', icon: ReceiptIcon },
    { id: 'courses', icon: BookIcon },
    { id: 'analytics', icon: ChartIcon },
    { id: 'prices', icon: TagIcon },
    { id: 'cooperative', icon: StoreIcon },
    { id: 'settings', icon: SettingsIcon },
    phone,
    profile,
  ],
  farmer: [
    home,
    { id: 'products', icon: BoxIcon },
    // The application that made them a farmer, with the reviewer's comment.
    { id: 'applications', icon: ClipboardIcon },
    { id: 'orders', icon: ReceiptIcon },
    { id: 'earnings', icon: WalletIcon },
    { id: 'cooperative', icon: StoreIcon },
    { id: 'training', icon: BookIcon },
    phone,
    profile,
  ],
  agent: [
    home,
    { id: 'farmers', icon: UsersIcon },
    { id: 'applications', icon: ClipboardIcon },
    { id: 'prices', icon: TagIcon },
    { id: 'cooperative', icon: StoreIcon },
    phone,
    profile,
  ],
  customer: [
    home,
    { id: 'applications', icon: ClipboardIcon },
    { id: 'orders', icon: ReceiptIcon },
    { id: 'wishlist', icon: HeartIcon },
    { id: 'training', icon: BookIcon },
    phone,
    profile,
  ],
};

/** The home section's shortcut tiles. */
export const QUICK_ACTIONS: Record<DashboardKind, SectionId[]> = {
  admin: ['applications', 'users', 'courses', 'blogs', 'products', 'analytics', 'settings'],
  farmer: ['products', 'orders', 'earnings', 'training'],
  agent: ['farmers', 'applications', 'prices'],
  customer: ['applications', 'orders', 'training', 'wishlist'],
};
