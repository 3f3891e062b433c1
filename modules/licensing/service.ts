import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { type Clock, addDaysIso, todayIso } from '../core'
import { companies } from './schema'

export function findCompany(db: DbOrTx, codigo: number) {
	return db.select().from(companies).where(eq(companies.codigo, codigo)).get() ?? null
}

/**
 * Adds licence days to a company: counted from its current licence date, or from today when it has
 * none (1-core §2.11). Call inside the transaction that spends the credits.
 */
export function extendLicence(tx: DbOrTx, clock: Clock, codigo: number, days: number): { before: string | null; after: string } {
	const company = findCompany(tx, codigo)
	if (!company) throw new Error(`company ${codigo} not found`)
	const before = company.validade_licenca
	const after = addDaysIso(before ?? todayIso(clock), days)
	tx.update(companies).set({ validade_licenca: after }).where(eq(companies.codigo, codigo)).run()
	return { before, after }
}
