import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import type { Role } from '../../../modules/core'
import { $user } from '../stores/session'
import { PageRoot } from './PageRoot'

/** A page's island (its default export): PageRoot around what the signed-in user's role sees there. */
export function pageIsland(screen: (role: Role | undefined) => ReactNode) {
	return function PageIsland() {
		const user = useStore($user)
		return <PageRoot>{screen(user?.tipo)}</PageRoot>
	}
}
