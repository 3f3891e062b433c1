import { describe, expect, it } from 'bun:test'
import type { z } from 'zod'
import { LoginBody } from '../../../modules/auth/model'
import { CompanyBody, CompanyPatch, NoticeBody } from '../../../modules/companies/model'
import { AddCreditsBody, TransferBody } from '../../../modules/credits/model'
import { DownloadBody } from '../../../modules/downloads/model'
import { GeneralNoticeBody, IndividualNoticeBody } from '../../../modules/messaging/model'
import { RepresentativeCreate, RepresentativeUpdate } from '../../../modules/resellers/model'
import { AutoLogoutConfig, SETTING_RULES } from '../../../modules/settings/model'
import { TerminalBody } from '../../../modules/terminals/model'
import { ChangePasswordBody, ProfileUpdate, UserCreate, UserUpdate } from '../../../modules/users/model'

/** Every schema a form of the portal checks in the browser (issue 14, point 4). */
const FORMS: Record<string, z.ZodObject> = {
	LoginBody,
	CompanyBody,
	CompanyPatch,
	NoticeBody,
	TerminalBody,
	UserCreate,
	UserUpdate,
	ProfileUpdate,
	ChangePasswordBody,
	RepresentativeCreate,
	RepresentativeUpdate,
	GeneralNoticeBody,
	IndividualNoticeBody,
	DownloadBody,
	AddCreditsBody,
	TransferBody,
	AutoLogoutConfig
}

/** Wrong values of every kind a form could send (empty, blank, too long, wrong type, out of range...). */
const PROBES: unknown[] = [undefined, null, '', '   ', 'x'.repeat(3000), 'abc', -1, 0, 1.5, 1e12, Number.NaN, true, [], {}]

/** A message a person can read: a pt-BR sentence, no field key, no English. */
function problem(key: string, message: string): string | null {
	if (!/^[A-ZÁÉÍÓÚÂÊÔÃÕÇ0-9]/.test(message)) return 'does not start as a sentence'
	if (/invalid|expected|received|required|must|string|number|undefined/i.test(message.replace(/número|inválid/gi, ''))) return 'English'
	if ((/[_A-Z]/.test(key.slice(1)) || key.includes('_')) && message.includes(key)) return `names the field ${key}`
	if (message.includes(`"${key}"`)) return `quotes the field ${key}`
	return null
}

describe('form messages (issue 14, point 4): every message of a form schema is a pt-BR sentence without field names', () => {
	it('holds for every field of every form, whatever wrong value it gets', () => {
		const bad: string[] = []
		for (const [name, schema] of Object.entries(FORMS)) {
			for (const key of Object.keys(schema.shape)) {
				for (const probe of PROBES) {
					const result = schema.safeParse({ [key]: probe })
					if (result.success) continue
					for (const issue of result.error.issues.filter((i) => String(i.path[0]) === key)) {
						const why = problem(key, issue.message)
						if (why) bad.push(`${name}.${key} ← ${JSON.stringify(probe)?.slice(0, 20)}: "${issue.message}" (${why})`)
					}
				}
			}
		}
		expect([...new Set(bad)]).toEqual([])
	})

	it('holds for the settings form', () => {
		const bad: string[] = []
		for (const [key, rule] of Object.entries(SETTING_RULES)) {
			for (const probe of PROBES) {
				const result = (rule as z.ZodType).safeParse(probe)
				if (result.success) continue
				for (const issue of result.error.issues) {
					const why = problem(key, issue.message)
					if (why) bad.push(`${key} ← ${JSON.stringify(probe)?.slice(0, 20)}: "${issue.message}" (${why})`)
				}
			}
		}
		expect([...new Set(bad)]).toEqual([])
	})
})
