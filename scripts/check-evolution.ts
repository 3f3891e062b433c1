/**
 * bun run check:evolution — the Evolution rehearsal against the vendor's own WhatsApp server, from their machine:
 * EVOLUTION_CHECK_URL, EVOLUTION_CHECK_KEY, EVOLUTION_CHECK_INSTANCE and EVOLUTION_CHECK_PHONE (a number of the
 * operator's own: one text is sent to it). Prints one line per step; exits 1 when a step the portal depends on fails.
 * The instance's webhook is read, never changed.
 */
import { createEvolutionClient } from '../modules/evolution'
import { rehearsalLines, rehearseEvolution } from '../modules/evolution'

const env = (name: string) => process.env[name]?.trim() ?? ''
const missing = ['EVOLUTION_CHECK_URL', 'EVOLUTION_CHECK_KEY', 'EVOLUTION_CHECK_INSTANCE', 'EVOLUTION_CHECK_PHONE'].filter((n) => !env(n))
if (missing.length) {
	console.error(`Faltam variáveis: ${missing.join(', ')}. Exemplo:`)
	console.error(
		'  EVOLUTION_CHECK_URL=https://evo.exemplo.com EVOLUTION_CHECK_KEY=… EVOLUTION_CHECK_INSTANCE=minha-instancia EVOLUTION_CHECK_PHONE=5585999999999 npx -y bun@1 run check:evolution'
	)
	process.exit(1)
}
const client = createEvolutionClient({
	baseUrl: env('EVOLUTION_CHECK_URL'),
	apiKey: env('EVOLUTION_CHECK_KEY'),
	instance: env('EVOLUTION_CHECK_INSTANCE')
})
const result = await rehearseEvolution(client, { phone: env('EVOLUTION_CHECK_PHONE') })
for (const line of rehearsalLines(result)) console.log(line)
process.exit(result.ok ? 0 : 1)
