import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { representatives } from './schema'

/** CNPJs of the representatives a manager manages. */
export function managedRepresentativeCnpjs(db: DbOrTx, gerenteId: number): string[] {
	return db
		.select({ cnpj: representatives.cnpj })
		.from(representatives)
		.where(eq(representatives.gerente_id, gerenteId))
		.all()
		.map((r) => r.cnpj)
}

export function findRepresentativeByCnpj(db: DbOrTx, cnpj: string) {
	return db.select().from(representatives).where(eq(representatives.cnpj, cnpj)).get() ?? null
}
