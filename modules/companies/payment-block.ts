import { and, eq, isNull } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { logActivity } from '../activity'
import type { Clock } from '../core'
import { nonPaymentFlags } from './status'
import { FLAG_COLUMNS } from './systems'
import { companies } from './schema'
import { type CompanyRow, findCompany } from './service'

/**
 * A block for non-payment (issue 37): the reminder schedule of the billing module blocks a company whose parcel is
 * overdue, and lifts that block when nothing is overdue any more. The company remembers which of its systems the
 * schedule blocked (bloqueio_inadimplencia), so a payment lifts only those, and a person who changes the block flags
 * by hand makes the block theirs (the column is cleared by every manual change: service.ts).
 */

const SCHEDULE = 'Régua de cobrança'

/**
 * Blocks every system of the company still running, as blocked for non-payment: `motivo` says which parcel. Nothing
 * when the company is already blocked for non-payment or every system is already blocked (by hand: it stays so).
 * Call inside the transaction that decides it; answers the company when it blocked it.
 */
export async function blockForNonPayment(tx: DbOrTx, clock: Clock, codigo: number, motivo: string): Promise<CompanyRow | null> {
	const company = await findCompany(tx, codigo)
	if (!company || company.bloqueio_inadimplencia) return null
	const running = FLAG_COLUMNS.filter((flag) => company[flag] === 'N')
	if (running.length === 0) return null
	const blocked = await tx
		.update(companies)
		.set({ ...Object.fromEntries(running.map((flag) => [flag, 'S'])), bloqueio_inadimplencia: running.join(',') })
		.where(and(eq(companies.codigo, codigo), isNull(companies.bloqueio_inadimplencia)))
		.returning({ codigo: companies.codigo })
	if (blocked.length === 0) return null
	await logActivity(
		tx,
		clock,
		'companies.blocked-for-non-payment',
		{ razao: company.razao, motivo },
		{ actorName: SCHEDULE, entityId: codigo, representanteCnpj: company.cnpj_representante }
	)
	return company
}

/**
 * Lifts what the schedule blocked (those systems back to running; a block by hand is not touched). Nothing when the
 * company holds no block for non-payment. Call inside the transaction that found nothing overdue; answers the company
 * when it lifted the block.
 */
export async function liftNonPaymentBlock(tx: DbOrTx, clock: Clock, codigo: number, motivo: string): Promise<CompanyRow | null> {
	const company = await findCompany(tx, codigo)
	const held = nonPaymentFlags(company?.bloqueio_inadimplencia)
	if (!company?.bloqueio_inadimplencia) return null
	const lifted = await tx
		.update(companies)
		.set({ ...Object.fromEntries(held.map((flag) => [flag, 'N'])), bloqueio_inadimplencia: null })
		.where(and(eq(companies.codigo, codigo), eq(companies.bloqueio_inadimplencia, company.bloqueio_inadimplencia)))
		.returning({ codigo: companies.codigo })
	if (lifted.length === 0) return null
	await logActivity(
		tx,
		clock,
		'companies.unblocked-after-payment',
		{ razao: company.razao, motivo },
		{ actorName: SCHEDULE, entityId: codigo, representanteCnpj: company.cnpj_representante }
	)
	return company
}
