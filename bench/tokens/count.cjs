// Counts o200k_base tokens (gpt-tokenizer) of each string in the JSON array read from stdin,
// and prints the counts as a JSON array. CommonJS, so that NODE_PATH finds the package.
const { encode } = require('gpt-tokenizer/encoding/o200k_base');

let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => { input += chunk; });
process.stdin.on('end', () => {
  const texts = JSON.parse(input);
  process.stdout.write(JSON.stringify(texts.map((text) => encode(text).length)));
});
