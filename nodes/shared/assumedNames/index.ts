/**
 * Assumed wire names: every request member the interface describes without
 * giving its property name, in one place (one file per resource, re-exported
 * here). README.md lists them under "Assumed field names"; "Additional Body
 * Fields (JSON)" overrides any of them without a release.
 *
 * Each name follows the convention the field already uses (DESIGN.md,
 * "Assumed wire names"): the unified video API for videos, Anthropic Messages
 * for messages, OpenAI Responses for responses, the Gemini API for cached
 * contents, OpenAI speech plus the native names the interface gives for speech.
 */
export * from './cachedContent';
export * from './image';
export * from './message';
export * from './response';
export * from './speech';
export * from './video';
