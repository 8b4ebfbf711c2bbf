import { describe, expect, it } from 'vitest';
import { topicDisplayName } from '../../shared/topic-names';

describe('topicDisplayName', () => {
  it('keeps the real casing of acronyms and brands', () => {
    // Act
    const names = ['ux', 'aws', 'javascript', 'lgbtq', 'ai', 'seo', 'nft', 'devops', 'typescript'].map(topicDisplayName);

    // Assess
    expect(names).toEqual(['UX', 'AWS', 'JavaScript', 'LGBTQ', 'AI', 'SEO', 'NFT', 'DevOps', 'TypeScript']);
  });

  it('keeps them inside longer tags', () => {
    expect(topicDisplayName('ios-development')).toBe('iOS Development');
    expect(topicDisplayName('ux-design')).toBe('UX Design');
    expect(topicDisplayName('aws-lambda')).toBe('AWS Lambda');
    expect(topicDisplayName('artificial-intelligence')).toBe('Artificial Intelligence');
  });

  it('names the tags whose name is not their words', () => {
    expect(topicDisplayName('golang')).toBe('Go');
    expect(topicDisplayName('nodejs')).toBe('Node.js');
    expect(topicDisplayName('covid-19')).toBe('COVID-19');
  });

  it('title-cases any other tag, little words inside a name left small', () => {
    expect(topicDisplayName('machine-learning')).toBe('Machine Learning');
    expect(topicDisplayName('health-and-fitness')).toBe('Health and Fitness');
    expect(topicDisplayName('the-future')).toBe('The Future');
    expect(topicDisplayName('web-3-0')).toBe('Web 3 0');
  });
});
