import {
	BarChart3,
	BellRing,
	Bot,
	Building2,
	Coins,
	CreditCard,
	Download,
	History,
	Landmark,
	LayoutDashboard,
	LogOut,
	Megaphone,
	MessagesSquare,
	Monitor,
	Receipt,
	Settings,
	SlidersHorizontal,
	UserCog,
	UserRound,
	Users,
	Wallet
} from 'lucide-react'

const ICONS = {
	BarChart3,
	BellRing,
	Bot,
	Building2,
	Coins,
	CreditCard,
	Download,
	History,
	Landmark,
	LayoutDashboard,
	LogOut,
	Megaphone,
	MessagesSquare,
	Monitor,
	Receipt,
	Settings,
	SlidersHorizontal,
	UserCog,
	UserRound,
	Users,
	Wallet
}

/** Menu icons, rendered to static SVG by Astro (no client JavaScript). */
export default function MenuIcon({ name, className = 'size-5' }: { name: string; className?: string }) {
	const Icon = ICONS[name as keyof typeof ICONS] ?? LayoutDashboard
	return <Icon className={className} aria-hidden="true" />
}
