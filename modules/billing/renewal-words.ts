import { carneName, formatBrDate, formatNumber } from '../core'
import { parcelStatusLabel } from './labels'

/**
 * The words of the automatic licence renewal (issue 37), without the schema library: the carnê dialog, the cards and
 * the server's messages say the same. Re-exported by the model.
 */

/** The most credits one parcel may spend (a year of licence at the default 33 days per credit). */
export const MAX_CREDITS_PER_PARCEL = 12

/** A renewal to be named in a message: which parcel of which carnê, for which company, for how many credits. */
interface NamedRenewal {
	numero: number
	totalParcelas: number
	carneId: number
	razao: string
	creditos: number
}

/** What a parcel's view says of its renewal (carnes-model's RenewalFields). */
interface ParcelRenewal {
	status: string
	renovacao: 'pendente' | 'aguardando' | 'aplicada' | 'cancelada' | null
	renovou_ate: string | null
	renovacao_motivo: string | null
}

/** Money sent back, as the badges say it: a renewal it paid for stays, and the parcel says so. */
const SENT_BACK = ['Estornado', 'Estorno em andamento', 'Em disputa']

const credits = (n: number) => `${formatNumber(n)} ${n === 1 ? 'crédito' : 'créditos'}`
const parcelOf = (r: NamedRenewal) => `parcela ${r.numero}/${r.totalParcelas} do ${carneName(r.carneId)} (${r.razao})`

export const renewalWords = {
	credits,
	/** What a number of credits buys: "1 crédito = 33 dias de licença". */
	days: (creditos: number, daysPerCredit: number) => `${credits(creditos)} = ${formatNumber(creditos * daysPerCredit)} dias de licença`,
	/** The carnê card's line. */
	card: (renovar: boolean, creditos: number) =>
		renovar ? `Renova a licença a cada parcela paga (${credits(creditos)} por parcela)` : 'Não renova a licença automaticamente',
	/**
	 * A parcel's line about its renewal, and its tone; null when its payment renewed nothing. `short`: the words of a
	 * table's cell (the full line is its title).
	 */
	parcel(p: ParcelRenewal, short = false): { text: string; tone: 'success' | 'warning' | 'info' | 'muted' } | null {
		switch (p.renovacao) {
			case 'aplicada': {
				const kept = SENT_BACK.includes(parcelStatusLabel(p.status))
				const until = formatBrDate(p.renovou_ate)
				return {
					text: short
						? `Renovada até ${until}${kept ? ' (mantida)' : ''}`
						: `Renovou a licença até ${until}${kept ? ' (mantida: o estorno não desfaz a renovação)' : ''}`,
					tone: kept ? 'warning' : 'success'
				}
			}
			case 'aguardando':
				return { text: short ? 'Aguardando créditos' : 'Renovação da licença aguardando créditos', tone: 'warning' }
			case 'pendente':
				return { text: short ? 'Renovando…' : 'Renovando a licença…', tone: 'info' }
			case 'cancelada':
				return { text: short ? 'Não renovada' : `Sem renovação: ${p.renovacao_motivo ?? 'cancelada'}`, tone: 'muted' }
			default:
				return null
		}
	},
	/** The top-bar notification when renewals wait for credits. */
	waitingMessage(fresh: NamedRenewal[], needed: number, available: number) {
		const what =
			fresh.length === 1
				? `A ${parcelOf(fresh[0])} foi paga, mas a licença não foi renovada`
				: `${fresh.length} parcelas pagas não renovaram a licença`
		return `${what}: faltam créditos (${credits(needed)} necessários, ${credits(available)} disponíveis). Compre créditos: a renovação é aplicada assim que eles chegarem.`
	},
	/** The WhatsApp message to the representative's own number. */
	whatsappMessage(nome: string, renewals: NamedRenewal[], link: string | null) {
		const needed = renewals.reduce((sum, r) => sum + r.creditos, 0)
		return [
			`Olá${nome ? `, ${nome}` : ''}! ${renewals.length === 1 ? 'Uma parcela paga não renovou' : `${renewals.length} parcelas pagas não renovaram`} a licença dos seus clientes por falta de créditos:`,
			...renewals.map((r) => `• ${parcelOf(r)}: ${credits(r.creditos)}`),
			`São necessários ${credits(needed)}. ${link ? `Compre créditos em ${link}` : 'Compre créditos no portal, em Créditos › Comprar Créditos'}: as renovações são aplicadas assim que eles chegarem.`
		].join('\n')
	}
}
