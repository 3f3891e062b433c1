/**
 * The baseline: a bare Elysia route doing one point lookup by CNPJ (argv: database port), with bun:sqlite on a
 * SQLite file or with postgres.js on a PostgreSQL URL.
 */
import { Database } from 'bun:sqlite'
import { Elysia } from 'elysia'
import postgres from 'postgres'

const [database, port] = process.argv.slice(2)
const query = 'select codigo, razao, validade_licenca, bloqueado from companies where cnpj = $1'
let lookup: (cnpj: string) => unknown
if (/^postgres(ql)?:\/\//.test(database)) {
	const client = postgres(database, { max: 10 })
	lookup = async (cnpj) => (await client.unsafe(query, [cnpj], { prepare: true }))[0]
} else {
	const statement = new Database(database, { readonly: true }).prepare(query.replace('$1', '?'))
	lookup = (cnpj) => statement.get(cnpj)
}
new Elysia()
	.post('/check', async ({ body }) => (await lookup((body as { cnpj: string }).cnpj)) ?? { status: 'nao_encontrada' })
	.listen({ port: Number(port), hostname: '127.0.0.1' })
console.log('ready')
