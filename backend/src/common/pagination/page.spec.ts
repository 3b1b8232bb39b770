import { clampSize, toPage } from './page';

describe('toPage', () => {
  it("produces the spec's page fields", () => {
    expect(toPage(['a', 'b'], 12, 1, 5)).toEqual({
      content: ['a', 'b'],
      totalElements: 12,
      totalPages: 3,
      number: 1,
      size: 5,
      first: false,
      last: false,
      empty: false,
      numberOfElements: 2,
      pageable: { pageNumber: 1, pageSize: 5, offset: 5, paged: true, unpaged: false },
    });
  });

  it('marks an empty result as first, last and empty', () => {
    expect(toPage([], 0, 0, 10)).toMatchObject({ totalPages: 0, first: true, last: true, empty: true, numberOfElements: 0 });
  });
});

describe('clampSize', () => {
  it.each([
    [undefined, 10],
    ['abc', 10],
    [0, 1],
    [-5, 1],
    [50, 50],
    [5000, 100],
  ])('clamps %p to %p', (input, expected) => {
    expect(clampSize(input, 10, 100)).toBe(expected);
  });
});
