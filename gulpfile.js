// The build's asset step: tsc compiles the code, this copies what tsc does not
// (node and credential icons, codex JSON) into dist/ beside the compiled files.
const { src, dest } = require('gulp');

function buildAssets() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports['build:assets'] = buildAssets;
exports.default = buildAssets;
