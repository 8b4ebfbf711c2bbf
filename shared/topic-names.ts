/**
 * The name people see for a topic tag. Tags are lower-case words joined by dashes
 * ('ios-development'), which loses the casing of acronyms and brands: title-casing them gives
 * 'Ux', 'Aws' and 'Javascript'. Both the API (each topic's `name`) and the web app (a row's
 * topic links, which carry only tags) name topics with this one function.
 */

/** Whole tags whose name is not their words: a brand's own spelling, or a sign the tag drops. */
const TAG_NAMES: Readonly<Record<string, string>> = {
  golang: 'Go',
  'c-sharp': 'C#',
  'c-plus-plus': 'C++',
  cpp: 'C++',
  dotnet: '.NET',
  nodejs: 'Node.js',
  'node-js': 'Node.js',
  vuejs: 'Vue.js',
  'vue-js': 'Vue.js',
  nextjs: 'Next.js',
  'next-js': 'Next.js',
  reactjs: 'React',
  'react-js': 'React',
  covid19: 'COVID-19',
  'covid-19': 'COVID-19',
  web3: 'Web3',
  'web-3': 'Web3',
};

/** Words written other than capitalised, wherever they stand in a tag. */
const WORD_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  [
    // Acronyms and initialisms.
    'AI',
    'API',
    'AR',
    'AWS',
    'B2B',
    'B2C',
    'CBD',
    'CEO',
    'CI',
    'CRM',
    'CSS',
    'CTO',
    'DAO',
    'DIY',
    'ESG',
    'GCP',
    'GPT',
    'HR',
    'HTML',
    'IoT',
    'IT',
    'KPI',
    'LGBT',
    'LGBTQ',
    'LLM',
    'LLMs',
    'MBA',
    'ML',
    'NFT',
    'NFTs',
    'NLP',
    'PHP',
    'PR',
    'QA',
    'SaaS',
    'SEO',
    'SQL',
    'UI',
    'UK',
    'UN',
    'USA',
    'UX',
    'VC',
    'VR',
    'ADHD',
    'PTSD',
    'PhD',
    'COVID',
    '3D',
    // Brands and languages with their own capitals.
    'ChatGPT',
    'DevOps',
    'MLOps',
    'DeFi',
    'GitHub',
    'GitLab',
    'GraphQL',
    'JavaScript',
    'TypeScript',
    'jQuery',
    'LinkedIn',
    'MongoDB',
    'MySQL',
    'NoSQL',
    'OpenAI',
    'PostgreSQL',
    'TikTok',
    'WordPress',
    'YouTube',
    'iOS',
    'iPad',
    'iPhone',
    'macOS',
    'eBay',
    'eCommerce',
  ].map((name) => [name.toLowerCase(), name]),
);

/** Small words that stay lower-case inside a name: 'Art of Living', not 'Art Of Living'. */
const MINOR_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'in', 'of', 'on', 'or', 'the', 'to', 'vs', 'with']);

/** 'ux' -> 'UX', 'ios-development' -> 'iOS Development', 'machine-learning' -> 'Machine Learning'. */
export function topicDisplayName(tag: string): string {
  const whole = TAG_NAMES[tag];
  if (whole) return whole;
  return tag
    .split('-')
    .filter((word) => word !== '')
    .map((word, index) => {
      const known = WORD_NAMES[word];
      if (known) return known;
      if (index > 0 && MINOR_WORDS.has(word)) return word;
      return word.charAt(0).toUpperCase() + word.slice(1);
    })
    .join(' ');
}
