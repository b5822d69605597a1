/**
 * The unit tests on the package's runtime floor (scripts/test-floor.sh): the oldest Node that the
 * supported n8n releases run on (n8n 1.123 and 2.0 declare Node 20.19), with n8n 1.123's
 * n8n-workflow (1.120.31, a dev alias) in place of the installed one. Package code that uses a newer
 * language or library feature, or a newer n8n-workflow export, fails here.
 */
const base = require('./jest.config.js');

module.exports = {
	...base,
	roots: ['<rootDir>/test/unit'],
	moduleNameMapper: { '^n8n-workflow$': 'n8n-workflow-1.120' },
};
