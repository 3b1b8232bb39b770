/** Texts of the search box and the /search page, in the tone of the reading pages. */
import { countNoun, Nouns } from '../../lib/texts/nouns';

export const SearchTexts = {
  PAGE_TITLE: 'Search',
  HEADING: 'Search Inkwell',
  INTRO:
    'Find stories by title, words in the text, tag or author. Use quotes for a phrase ("dark mode") and a minus to leave a word out (-draft).',
  resultsFor: (query: string) => `Search results for “${query}”`,
  resultCount: (total: number, query: string) => `${countNoun(total, Nouns.RESULT)} for “${query}”`,
  NO_RESULTS_TITLE: (query: string) => `No results for “${query}”`,
  NO_RESULTS_TIPS: ['Check the spelling of your words.', 'Try fewer or more general words.', 'Remove a filter, or widen the dates.'],
  BROWSE_TAGS: 'Or browse a tag:',
  BROWSE_POSTS: 'Browse all posts',
  DID_YOU_MEAN: 'Did you mean',
  PAST_LAST_PAGE: 'There are no more results on this page.',
  BAD_SEARCH: 'Please check your search',
  FAILED: 'Search is not available right now',
  SUGGESTIONS_FAILED: 'Suggestions are not available right now',
  suggestionCount: (count: number) => (count === 0 ? 'No suggestions' : countNoun(count, Nouns.SUGGESTION)),
} as const;
