// Hand-written articles the tests share (invented, not from the benchmark corpus, so tests do not
// quietly tune the methods to the data they are measured on).
import type { ArticleText } from '../../services/intelligence/provider.ts';

export const layoffsArticle: ArticleText = {
  title: 'Acme Corp to cut 1,200 jobs as profits fall',
  text: [
    'Acme Corp will cut 1,200 jobs in Europe after its quarterly profits fell 18% to $420m, the company said on Tuesday.',
    'The layoffs will mostly hit factories in Germany and Poland, where demand for its industrial robots has slowed.',
    'Chief executive Maria Lopez said the cuts were painful but necessary.',
    '"We did not take this decision lightly, and we will support every worker affected," Ms Lopez said.',
    'Acme Corp shares rose 3.5% in New York after the announcement, as investors welcomed the savings.',
    'Analysts at Northbridge Bank said the layoffs would save about $150m a year.',
    'Unions in Germany condemned the plan and threatened strikes at two plants.',
    'Lopez said the company would still invest in its robotics research centre in Munich.',
    'The firm employs 40,000 people worldwide.',
  ].join('\n'),
  language: 'en',
};

export const cupFinalArticle: ArticleText = {
  title: 'Rovers win the cup final',
  text: [
    'Riverside Rovers won the cup final on Saturday, beating Hill Town 2-1 in front of 60,000 fans.',
    'Striker Tom Baker scored both goals for Rovers in the second half.',
    'The Rovers coach praised his team and said the victory was the best moment of his career.',
    'Hill Town had led at half time after a penalty, but their defence could not hold on.',
    'Baker said: "It is a dream come true for me and for the fans."',
    'The club will parade the trophy through the city on Monday.',
  ].join('\n'),
};
