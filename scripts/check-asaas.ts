/**
 * bun run check:asaas — a vendor's rehearsal against their own Asaas sandbox account (issue 32): the steps of
 * modules/asaas/rehearsal.ts, one line each, and exit 1 when a step the portal depends on fails.
 *
 *   ASAAS_CHECK_KEY='$aact_hmlg_…' npx -y bun@1 run check:asaas
 *
 * ASAAS_CHECK_KEY  the sandbox account's API key (single quotes: it starts with $).
 * ASAAS_SANDBOX_URL  default https://api-sandbox.asaas.com/v3.
 *
 * Sandbox only, decided before any request: the key must carry `_hmlg_` (Asaas' sandbox keys are `$aact_hmlg_…`,
 * production ones `$aact_prod_…` or, older, just `$aact_…`), and the URL must be Asaas' sandbox host (or a local
 * stand-in on this machine). The rehearsal creates a customer and a 2-parcel plan and removes the plan; a
 * production account must never see that.
 */
import { rehearsalLines, rehearseAsaas, SANDBOX_URL, sandboxRefusal } from '../modules/asaas'

const apiKey = process.env.ASAAS_CHECK_KEY ?? ''
const baseUrl = process.env.ASAAS_SANDBOX_URL || SANDBOX_URL
const refusal = sandboxRefusal(apiKey, baseUrl)
if (refusal) {
	console.error(refusal)
	process.exit(1)
}
console.log(`Ensaio no sandbox do Asaas (${baseUrl})`)
const result = await rehearseAsaas({ apiKey, baseUrl })
for (const line of rehearsalLines(result)) console.log(line)
process.exit(result.ok ? 0 : 1)
