import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import type { Role } from '../../../modules/core'
import { $user } from '../stores/session'
import { PageRoot } from './PageRoot'

/** A page island's root: PageRoot around what the signed-in user's role sees there. */
export function RolePage({ children }: { children: (role: Role | undefined) => ReactNode }) {
	const user = useStore($user)
	return <PageRoot>{children(user?.tipo)}</PageRoot>
}
