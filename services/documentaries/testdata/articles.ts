// Hand-written news articles for the documentary tests: invented events of November 2026, written the
// way feeds deliver them (some with only a summary, some with a body carrying captions, bylines and
// markup left over). Two stories are told by several outlets with reworded headlines, one outlet tells
// a story twice, and some articles are about nothing a test asks for.
import type { CandidateArticle } from '../stories.ts';

/** "Now" for every test: the documentaries cover the week before it. */
export const now = new Date('2026-11-24T12:00:00Z');
export const weekAgo = new Date('2026-11-17T12:00:00Z');

function article(
  fields: Pick<CandidateArticle, 'id' | 'title' | 'source' | 'sourceId'> &
    Partial<Omit<CandidateArticle, 'publishedAt'>> & { publishedAt: string },
): CandidateArticle {
  return {
    summary: '',
    content: '',
    url: `https://news.example/${fields.id}`,
    language: 'en',
    category: null,
    keywords: [],
    ...fields,
    publishedAt: new Date(fields.publishedAt),
  };
}

// ---- semiconductors ------------------------------------------------------------------------------

export const bbcNvidiaCurbs = article({
  id: 'bbc-nvidia-curbs',
  title: 'US tightens export curbs on Nvidia AI chips to China',
  source: 'BBC News',
  sourceId: 'bbc',
  publishedAt: '2026-11-23T09:00:00Z',
  category: 'technology',
  keywords: ['export curb', 'chip', 'semiconductor'],
  summary:
    'The US Commerce Department has barred Nvidia from selling its H30 artificial intelligence chips to China without a licence.',
  content: [
    '<p>The US Commerce Department has barred Nvidia from selling its H30 artificial intelligence chips to China without a licence.</p>',
    '<p>Image caption, Nvidia designs the chips but relies on TSMC to make them</p>',
    '<p>By Sarah Jones, Technology reporter</p>',
    '<p>The new rules, published on Sunday, close a gap that let Chinese firms buy slightly slower versions of the company&#39;s most powerful semiconductors.</p>',
    '<p>Officials said the chips could be used to train military artificial intelligence systems.</p>',
    '<p>Nvidia said it would comply with the rules and expected them to reduce its fourth-quarter revenue by about $2bn.</p>',
    '<p>China accounted for 13% of the company&#39;s sales last year, down from more than a quarter in 2022.</p>',
    '<p>Beijing&#39;s commerce ministry called the move &quot;economic bullying&quot; and said it would protect the rights of Chinese companies.</p>',
    '<p>Chinese chipmakers such as Huawei have been racing to build domestic alternatives to Nvidia&#39;s products.</p>',
    '<p>Analysts said the curbs would speed up that effort but leave Chinese developers short of computing power for a year or more.</p>',
    '<p>Getty Images</p>',
    '<p>The rules take effect in 30 days, giving exporters time to apply for licences.</p>',
  ].join('\n'),
});

export const reutersNvidiaCurbs = article({
  id: 'reuters-nvidia-curbs',
  title: 'Washington widens restrictions on Nvidia chip sales to Chinese buyers',
  source: 'Reuters',
  sourceId: 'reuters',
  publishedAt: '2026-11-23T11:30:00Z',
  category: 'business',
  keywords: ['chip', 'export restriction', 'licence'],
  summary:
    'The United States widened export restrictions to cover Nvidia H30 artificial intelligence chips sold to China, the Commerce Department said on Sunday.',
  content: [
    'The United States widened export restrictions to cover Nvidia H30 artificial intelligence chips sold to China, the Commerce Department said on Sunday.',
    'Under the rules, exporters will need a licence to ship the chips to Chinese customers, and officials said most applications would be refused.',
    'Nvidia said the restrictions would cut fourth-quarter revenue by about $2bn.',
    'The company’s shares fell 4% in premarket trading on Monday.',
    'A spokesperson for the Chinese embassy in Washington said the United States was abusing export controls.',
    'Industry groups warned that the rules would push Chinese buyers towards domestic suppliers for good.',
    'Reporting by David Chen; Editing by Mark Potter',
  ].join('\n'),
});

export const bbcNvidiaShares = article({
  id: 'bbc-nvidia-shares',
  title: 'Nvidia shares fall after US tightens China chip export rules',
  source: 'BBC News',
  sourceId: 'bbc',
  publishedAt: '2026-11-23T15:00:00Z',
  category: 'business',
  summary:
    'Shares in Nvidia fell 4% on Monday after the US tightened export rules on its H30 artificial intelligence chips to China.',
  content: [
    'Shares in Nvidia fell 4% on Monday after the US tightened export rules on its H30 artificial intelligence chips to China.',
    'The chipmaker said on Sunday that the rules would cut its fourth-quarter revenue by about $2bn.',
    'Other chip stocks also fell, with AMD down 2%.',
    'Investors have worried for months that trade tensions between Washington and Beijing could hurt demand for American semiconductors.',
  ].join('\n'),
});

export const ftTsmcArizona = article({
  id: 'ft-tsmc-arizona',
  title: 'TSMC begins volume production at second Arizona chip plant',
  source: 'Financial Times',
  sourceId: 'ft',
  publishedAt: '2026-11-20T08:00:00Z',
  category: 'technology',
  keywords: ['chip plant', 'semiconductor', 'production'],
  summary:
    'Taiwan Semiconductor Manufacturing Company has started volume production of 3-nanometre chips at its second factory in Phoenix, Arizona.',
  content: [
    'Taiwan Semiconductor Manufacturing Company has started volume production of 3-nanometre chips at its second factory in Phoenix, Arizona.',
    'The plant is the most advanced chip factory operating in the United States.',
    'TSMC said early yields at the site were comparable with those at its factories in Taiwan.',
    'Apple and AMD are expected to be among the first customers for chips made at the plant.',
    'The company has committed $165bn to manufacturing in Arizona, helped by grants under the Chips Act.',
    'The first Arizona factory began production last year after delays caused by a shortage of skilled workers.',
    'TSMC has since trained more than 2,000 American engineers at its plants in Taiwan.',
    'A third factory, which will make even more advanced chips, is due to open before the end of the decade.',
    'Local officials said the project had created about 6,000 construction jobs in the Phoenix area.',
  ].join('\n'),
});

export const vergeTsmcArizona = article({
  id: 'verge-tsmc-arizona',
  title: "TSMC's second Arizona fab is now making 3nm chips in volume",
  source: 'The Verge',
  sourceId: 'verge',
  publishedAt: '2026-11-20T15:00:00Z',
  category: 'technology',
  summary:
    'TSMC’s second Phoenix factory has started volume production of 3-nanometre chips, making it the most advanced chip plant in the US.',
  content: [
    'TSMC’s second Phoenix factory has started volume production of 3-nanometre chips, making it the most advanced chip plant in the US.',
    'The company told reporters that yields in Arizona were now close to those in Taiwan.',
    'Apple is widely expected to use the plant for processors in future iPhones and Macs.',
    'The Verge has asked Apple for comment.',
  ].join('\n'),
});

export const guardianIntelJobs = article({
  id: 'guardian-intel-jobs',
  title: 'Intel to cut 4,000 jobs as chipmaker struggles to catch rivals',
  source: 'The Guardian',
  sourceId: 'guardian',
  publishedAt: '2026-11-18T10:00:00Z',
  category: 'business',
  keywords: ['job cut', 'chipmaker', 'semiconductor', 'factory'],
  summary:
    'Intel will cut about 4,000 jobs, mostly in its factory division, as the chipmaker tries to reduce costs after losing market share to rivals.',
  content: [
    'Intel will cut about 4,000 jobs, mostly in its factory division, as the chipmaker tries to reduce costs after losing market share to rivals.',
    'The company said the cuts would save $1.5bn a year by 2028.',
    'Intel, once the world’s largest semiconductor company, has struggled to win customers for its contract manufacturing business, which makes chips designed by other companies.',
    'Its chief executive said the company would focus on fewer, larger customers.',
    'The cuts come a year after Intel laid off 15% of its workforce.',
    'Unions in Ireland, where Intel runs a large plant, said they had not been consulted.',
    'Shares in Intel rose 3% in New York after the announcement.',
  ].join('\n'),
});

export const bbcCarChipShortage = article({
  id: 'bbc-car-chip-shortage',
  title: 'Carmakers warn of new semiconductor shortage hitting production',
  source: 'BBC News',
  sourceId: 'bbc',
  publishedAt: '2026-11-21T07:00:00Z',
  category: 'business',
  keywords: ['carmaker', 'semiconductor', 'shortage'],
  summary:
    'European carmakers have warned that a shortage of basic semiconductors could halt production lines before Christmas.',
  content: [
    'European carmakers have warned that a shortage of basic semiconductors could halt production lines before Christmas.',
    'The European car industry association said several plants had only two weeks of chips in stock.',
    'The chips in short supply are simple power controllers, not the advanced processors used in phones.',
    'Most of them are packaged in China and Malaysia, where exports have slowed since October.',
    'Volkswagen said it was looking for other suppliers but that switching would take months.',
    'During the pandemic, a similar shortage cut global car production by about 10 million vehicles.',
    'Carmakers have since tried to hold larger stocks of chips, but many reduced them again this year to save money.',
  ].join('\n'),
});

export const techcrunchSamsungMemory = article({
  id: 'techcrunch-samsung-memory',
  title: 'Samsung unveils faster memory chips for AI data centres',
  source: 'TechCrunch',
  sourceId: 'techcrunch',
  publishedAt: '2026-11-19T16:00:00Z',
  category: 'technology',
  summary:
    'Samsung has unveiled a new generation of high-bandwidth memory chips, which it says are 40% faster than its previous models.',
  content: [
    'Samsung has unveiled a new generation of high-bandwidth memory chips, which it says are 40% faster than its previous models.',
    'High-bandwidth memory sits next to the processors in AI servers and has become one of the most profitable products in the chip industry.',
    'Samsung, the world’s biggest maker of memory semiconductors, has lagged behind its South Korean rival SK Hynix in this part of the market.',
    'The company said it would begin shipping samples to customers in the first quarter of next year.',
    'It did not name the customers, but analysts expect Nvidia to test the chips.',
    'The post Samsung unveils faster memory chips for AI data centres appeared first on TechCrunch.',
  ].join('\n'),
});

export const ftAsmlOrders = article({
  id: 'ft-asml-orders',
  title: 'ASML reports record orders for chipmaking machines',
  source: 'Financial Times',
  sourceId: 'ft',
  publishedAt: '2026-11-18T06:30:00Z',
  category: 'business',
  keywords: ['chipmaking machine', 'order', 'semiconductor'],
  summary:
    'ASML, the Dutch maker of machines used to produce the most advanced semiconductors, said orders reached a record €9.2bn in the third quarter.',
  content: [
    'ASML, the Dutch maker of machines used to produce the most advanced semiconductors, said orders reached a record €9.2bn in the third quarter.',
    'More than half of the orders were for its extreme ultraviolet lithography systems, which cost about €200m each.',
    'The company said demand from chipmakers building capacity for artificial intelligence had more than offset weaker orders from makers of smartphone chips.',
    'Its chief executive said customers were planning for strong growth in 2027 and 2028.',
    'Sales to China fell to 20% of the total, from almost half a year earlier, as Dutch export rules took effect.',
    'ASML is the only company in the world that makes extreme ultraviolet machines.',
    'Each system is shipped to customers in about 40 freight containers and takes months to install.',
    'Shares in ASML rose 6% in Amsterdam, their biggest daily gain since the spring.',
    'Analysts said the results eased fears that the boom in spending on artificial intelligence was slowing.',
  ].join('\n'),
});

export const bbcEuChipPlant = article({
  id: 'bbc-eu-chip-plant',
  title: 'EU approves €5bn German subsidy for semiconductor factory',
  source: 'BBC News',
  sourceId: 'bbc',
  publishedAt: '2026-11-19T11:00:00Z',
  category: 'business',
  keywords: ['subsidy', 'semiconductor', 'factory'],
  summary:
    'The European Commission has approved €5bn of German state aid for a new semiconductor factory near Dresden.',
  content: [
    'The European Commission has approved €5bn of German state aid for a new semiconductor factory near Dresden.',
    'The plant will make chips for cars and industrial machines and is due to open in 2029.',
    'It is expected to employ about 2,000 people when it reaches full production.',
    'The Commission said the aid was necessary because the project would not go ahead without it.',
    'The EU wants to make 20% of the world’s semiconductors by 2030, but its share has stayed at about 10%.',
    'Critics said the money would be better spent on research and training than on factories.',
    'Dresden is already home to plants run by Infineon, GlobalFoundries and Bosch, and the region calls itself Silicon Saxony.',
    'The German government said it would sign the final funding agreement before the end of the year.',
  ].join('\n'),
});

export const guardianRapidus = article({
  id: 'guardian-rapidus',
  title: 'Japan’s Rapidus starts trial production of 2nm semiconductors',
  source: 'The Guardian',
  sourceId: 'guardian',
  publishedAt: '2026-11-21T03:00:00Z',
  category: 'technology',
  keywords: ['semiconductor', 'pilot line', 'subsidy'],
  summary:
    'Rapidus, the Japanese chipmaker backed by the government, has started trial production of 2-nanometre semiconductors at its plant in Hokkaido.',
  content: [
    'Rapidus, the Japanese chipmaker backed by the government, has started trial production of 2-nanometre semiconductors at its plant in Hokkaido.',
    'The company was founded in 2022 by a group of Japanese companies including Toyota and Sony.',
    'It aims to begin mass production in 2027, around the same time as its larger rivals in Taiwan and South Korea.',
    'The Japanese government has committed more than ¥1.7tn to the project.',
    'Rapidus is working with IBM, which developed the design of the 2-nanometre transistors the plant will use.',
    'Japan was once the world’s biggest maker of chips but lost its lead to the United States, South Korea and Taiwan in the 1990s.',
    'Some analysts doubt that Rapidus can find enough customers to make the plant profitable.',
    'The company said it was in talks with more than 30 potential customers, but did not name them.',
  ].join('\n'),
});

export const vergeArmServerChip = article({
  id: 'verge-arm-server-chip',
  title: 'Arm will sell its own server chip for the first time',
  source: 'The Verge',
  sourceId: 'verge',
  publishedAt: '2026-11-22T17:00:00Z',
  category: 'technology',
  keywords: ['server chip', 'licence', 'semiconductor'],
  summary:
    'Arm, whose designs are used in almost every smartphone, will sell a finished server chip of its own for the first time, putting it in competition with some of its customers.',
  content: [
    'Arm, whose designs are used in almost every smartphone, will sell a finished server chip of its own for the first time, putting it in competition with some of its customers.',
    'Until now the British company has licensed its designs to other semiconductor firms, which make and sell the chips themselves.',
    'The new chip is designed for data centres and will be made by TSMC.',
    'Arm said a large cloud computing company had already agreed to buy it, but would not say which.',
    'Several of Arm’s customers, including Qualcomm, have said they are worried that the company will use what it learns from them to compete.',
    'Arm said it would keep licensing its designs and treat all customers fairly.',
    'The company is majority owned by the Japanese investment group SoftBank.',
    'Its shares rose 9% in New York after the announcement.',
  ].join('\n'),
});

export const reutersSkHynix = article({
  id: 'reuters-sk-hynix',
  title: 'SK Hynix to build $10bn memory chip plant in Indiana',
  source: 'Reuters',
  sourceId: 'reuters',
  publishedAt: '2026-11-24T02:00:00Z',
  category: 'business',
  keywords: ['memory chip', 'plant', 'semiconductor'],
  summary:
    'South Korea’s SK Hynix said on Tuesday it would build a $10bn plant in Indiana to package high-bandwidth memory chips used in artificial intelligence servers.',
  content: [
    'South Korea’s SK Hynix said on Tuesday it would build a $10bn plant in Indiana to package high-bandwidth memory chips used in artificial intelligence servers.',
    'The plant, near Purdue University in West Lafayette, is expected to start operating in 2029 and employ about 1,000 people.',
    'It will be the company’s first large factory in the United States.',
    'SK Hynix is the main supplier of high-bandwidth memory to Nvidia.',
    'The company said it expected to receive federal grants and tax credits for the project, but did not give figures.',
    'Indiana’s governor said the plant would make the state a centre of the semiconductor industry.',
    'Packaging, the last step in making a chip, has until now been done mostly in Asia.',
  ].join('\n'),
});

// ---- interest rates ------------------------------------------------------------------------------

export const bbcBoeRates = article({
  id: 'bbc-boe-rates',
  title: 'Bank of England holds interest rates at 4%',
  source: 'BBC News',
  sourceId: 'bbc',
  publishedAt: '2026-11-20T12:05:00Z',
  category: 'business',
  keywords: ['interest rate', 'inflation', 'mortgage'],
  summary:
    'The Bank of England has kept interest rates at 4%, saying inflation is falling more slowly than it had hoped.',
  content: [
    'The Bank of England has kept interest rates at 4%, saying inflation is falling more slowly than it had hoped.',
    'Six of the nine members of the Monetary Policy Committee voted to hold rates, while three wanted a cut to 3.75%.',
    'Inflation was 3.4% in October, well above the Bank’s 2% target.',
    'Governor Andrew Bailey said rates were likely to fall gradually next year if price rises kept easing.',
    'Mortgage lenders had expected the decision, and most fixed deals have already fallen in recent weeks.',
    'Savers will continue to earn more on their deposits than they did a few years ago.',
  ].join('\n'),
});

export const guardianBoeRates = article({
  id: 'guardian-boe-rates',
  title: 'Bank leaves borrowing costs on hold as inflation proves stubborn',
  source: 'The Guardian',
  sourceId: 'guardian',
  publishedAt: '2026-11-20T13:00:00Z',
  category: 'business',
  keywords: ['borrowing cost', 'inflation'],
  summary:
    'The Bank of England left interest rates unchanged at 4% on Thursday, with three of the nine members of its Monetary Policy Committee voting for a cut.',
  content: [
    'The Bank of England left interest rates unchanged at 4% on Thursday, with three of the nine members of its Monetary Policy Committee voting for a cut.',
    'The Bank said inflation, at 3.4% in October, was taking longer to fall than expected.',
    'Business groups urged the Bank to cut rates soon to support growth, which has been close to zero since the summer.',
  ].join('\n'),
});

export const reutersEcbRates = article({
  id: 'reuters-ecb-rates',
  title: 'ECB signals no rush to cut interest rates further',
  source: 'Reuters',
  sourceId: 'reuters',
  publishedAt: '2026-11-19T09:00:00Z',
  category: 'business',
  keywords: ['interest rate', 'inflation'],
  summary:
    'European Central Bank policymakers signalled on Tuesday that they were in no hurry to cut interest rates again, with inflation close to their 2% target.',
  content: '',
});

export const ftMortgageRates = article({
  id: 'ft-mortgage-rates',
  title: 'Mortgage lenders cut fixed-rate deals as swap rates ease',
  source: 'Financial Times',
  sourceId: 'ft',
  publishedAt: '2026-11-22T08:00:00Z',
  category: 'business',
  keywords: ['mortgage', 'swap rate'],
  summary:
    'Several of the largest UK mortgage lenders cut the price of their fixed-rate deals this week as swap rates, which lenders use to price loans, fell.',
  content: [
    'Several of the largest UK mortgage lenders cut the price of their fixed-rate deals this week as swap rates, which lenders use to price loans, fell.',
    'The average two-year fixed rate fell to 4.6%, according to the data provider Moneyfacts.',
    'Brokers said interest in remortgaging had picked up since the summer.',
  ].join('\n'),
});

// ---- unrelated -----------------------------------------------------------------------------------

export const skyCupFinal = article({
  id: 'sky-cup-final',
  title: 'Rovers win the cup final in extra time',
  source: 'Sky Sports',
  sourceId: 'sky',
  publishedAt: '2026-11-22T19:00:00Z',
  category: 'sport',
  summary: 'Riverside Rovers beat Hill Town 2-1 after extra time to win the cup final at Wembley.',
  content: [
    'Riverside Rovers beat Hill Town 2-1 after extra time to win the cup final at Wembley.',
    'Striker Tom Baker scored the winner in the 112th minute.',
    'Hill Town had led at half time after a penalty.',
  ].join('\n'),
});

export const bbcStormWales = article({
  id: 'bbc-storm-wales',
  title: 'Storm brings heavy rain and flood warnings to Wales',
  source: 'BBC News',
  sourceId: 'bbc',
  publishedAt: '2026-11-23T06:00:00Z',
  category: 'weather',
  summary:
    'Forecasters have issued flood warnings for much of Wales as a storm brings heavy rain and strong winds.',
  content: [
    'Forecasters have issued flood warnings for much of Wales as a storm brings heavy rain and strong winds.',
    'Up to 80mm of rain could fall on high ground by Tuesday morning.',
    'Several railway lines have been closed as a precaution.',
  ].join('\n'),
});

export const semiconductorArticles = [
  bbcNvidiaCurbs,
  reutersNvidiaCurbs,
  bbcNvidiaShares,
  ftTsmcArizona,
  vergeTsmcArizona,
  guardianIntelJobs,
  bbcCarChipShortage,
  techcrunchSamsungMemory,
  ftAsmlOrders,
  bbcEuChipPlant,
  guardianRapidus,
  vergeArmServerChip,
  reutersSkHynix,
];

export const interestRateArticles = [bbcBoeRates, guardianBoeRates, reutersEcbRates, ftMortgageRates];

export const allArticles: readonly CandidateArticle[] = [
  ...semiconductorArticles,
  ...interestRateArticles,
  skyCupFinal,
  bbcStormWales,
];
