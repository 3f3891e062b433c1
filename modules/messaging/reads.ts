/**
 * The message templates' rules for screens and other modules' plain code: a browser-safe door without the schemas, so
 * what imports them never loads model.ts (whose schemas run zod when the module loads).
 */
export { type TemplateVariables, renderTemplate, sendTimeProblem, templateProblem } from './templates'
