/** The baseline: a bare Elysia route doing one bun:sqlite point lookup by CNPJ (argv: dbPath port). */
import { Database } from 'bun:sqlite'
import { Elysia } from 'elysia'

const [dbPath, port] = process.argv.slice(2)
const db = new Database(dbPath, { readonly: true })
const lookup = db.prepare('select codigo, razao, validade_licenca, bloqueado from companies where cnpj = ?')
new Elysia()
	.post('/check', ({ body }) => lookup.get((body as { cnpj: string }).cnpj) ?? { status: 'nao_encontrada' })
	.listen({ port: Number(port), hostname: '127.0.0.1' })
console.log('ready')
