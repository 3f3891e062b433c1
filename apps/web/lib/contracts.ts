/**
 * Every module whose routes the islands may call, by name. api.ts imports this file as types only, so no schema
 * reaches the browser through here. A new module's routes become callable once it is listed.
 */
export * as auth from '../../../modules/auth/model'
export * as billing from '../../../modules/billing/model'
export * as bot from '../../../modules/bot/model'
export * as companies from '../../../modules/companies/model'
export * as credits from '../../../modules/credits/model'
export * as downloads from '../../../modules/downloads/model'
export * as messaging from '../../../modules/messaging/model'
export * as reports from '../../../modules/reports/model'
export * as resellers from '../../../modules/resellers/model'
export * as system from '../../../modules/system/model'
export * as terminals from '../../../modules/terminals/model'
export * as users from '../../../modules/users/model'
