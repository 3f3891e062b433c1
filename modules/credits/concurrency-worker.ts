/** Test helper: a separate thread with its own SQLite connection firing transfers at the same file. */
import { openDb } from '../../db/client'
import { fixedClock } from '../core'
import { transferToCompany } from './service'

declare const self: Worker

self.onmessage = async (event: MessageEvent<{ path: string; empresa: number; count: number }>) => {
	const { path, empresa, count } = event.data
	const db = openDb(path)
	// A loaded test machine can be slow to fsync: wait for the writer rather than fail with SQLITE_BUSY.
	db.$client.exec('PRAGMA busy_timeout = 30000')
	const clock = fixedClock('2026-11-20T12:00:00.000Z')
	const outcomes: number[] = []
	for (let i = 0; i < count; i++) {
		try {
			await transferToCompany(
				db,
				clock,
				{ id: 1, nome: 'Admin', cnpj: '', tipo: 'administrador' },
				{ empresaCodigo: empresa, sistema: 'K-PDV', creditos: 1, representanteCnpj: null }
			)
			outcomes.push(200)
		} catch (error) {
			outcomes.push((error as { status?: number }).status ?? 500)
		}
	}
	db.$client.close()
	self.postMessage(outcomes)
}
