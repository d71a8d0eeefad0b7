// Hand-written articles in Chinese and Spanish for the tests of documentaries in other languages than
// English: invented events of November 2026, written as those outlets write. In each language two
// outlets tell one story and a third article tells another story on the same topic.
import type { CandidateArticle } from '../stories.ts';

function article(
  fields: Pick<CandidateArticle, 'id' | 'title' | 'source' | 'sourceId' | 'content' | 'language'> & {
    publishedAt: string;
  },
): CandidateArticle {
  return {
    summary: '',
    url: `https://news.example/${fields.id}`,
    category: null,
    keywords: [],
    ...fields,
    publishedAt: new Date(fields.publishedAt),
  };
}

export const chineseArticles: CandidateArticle[] = [
  article({
    id: 'xinhua-chips',
    title: '美国升级半导体出口管制 中方坚决反对',
    source: '新华社',
    sourceId: 'xinhua',
    language: 'zh',
    publishedAt: '2026-11-23T09:00:00Z',
    content: [
      '美国商务部周日宣布，禁止英伟达在未获许可的情况下向中国出售人工智能芯片。',
      '中国商务部发言人表示，中方坚决反对美方将半导体出口管制泛化，将采取必要措施维护中国企业的正当权益。',
      '新规将在三十天后生效，出口商可以在此期间申请许可证。',
      '分析人士认为，新规将促使中国加快半导体产业的自主研发。',
    ].join('\n'),
  }),
  article({
    id: 'peoples-daily-chips',
    title: '商务部就美国限制英伟达人工智能芯片对华出口答记者问',
    source: '人民日报',
    sourceId: 'peoples-daily',
    language: 'zh',
    publishedAt: '2026-11-23T12:00:00Z',
    content: [
      '针对美国商务部禁止英伟达向中国出售人工智能芯片，商务部新闻发言人周一答记者问。',
      '发言人指出，美方滥用出口管制措施，损害全球半导体产业链的稳定，中方坚决反对。',
      '国内芯片企业表示，将继续加大研发投入，提高关键技术的自给率。',
    ].join('\n'),
  }),
  article({
    id: 'caixin-fab',
    title: '上海新建半导体晶圆厂正式投产',
    source: '财新网',
    sourceId: 'caixin',
    language: 'zh',
    publishedAt: '2026-11-20T08:00:00Z',
    content: [
      '上海一座新建的十二英寸半导体晶圆厂周四正式投产，总投资约一百五十亿元。',
      '这座工厂每月可生产五万片晶圆，主要供应汽车和工业领域的芯片。',
      '公司负责人表示，工厂将在明年实现满负荷运转，并新增两千个就业岗位。',
    ].join('\n'),
  }),
];

export const spanishArticles: CandidateArticle[] = [
  article({
    id: 'el-pais-ia',
    title: 'La Unión Europea aprueba nuevas normas para la inteligencia artificial',
    source: 'El País',
    sourceId: 'el-pais',
    language: 'es',
    publishedAt: '2026-11-22T10:00:00Z',
    content: [
      'El Parlamento Europeo aprobó el jueves un paquete de normas que obliga a las empresas de inteligencia artificial a revelar los datos con los que entrenan sus modelos.',
      'Las compañías que incumplan las nuevas obligaciones se enfrentarán a multas de hasta el seis por ciento de su facturación mundial.',
      'Los eurodiputados defendieron que la ley protege a los ciudadanos sin frenar la innovación.',
      'Las normas entrarán en vigor dentro de dos años.',
    ].join('\n'),
  }),
  article({
    id: 'el-mundo-ia',
    title: 'El Parlamento Europeo aprueba la ley de inteligencia artificial con multas de hasta el 6%',
    source: 'El Mundo',
    sourceId: 'el-mundo',
    language: 'es',
    publishedAt: '2026-11-22T14:00:00Z',
    content: [
      'El Parlamento Europeo aprobó el jueves la ley que obliga a las empresas de inteligencia artificial a revelar con qué datos entrenan sus modelos.',
      'Las multas por incumplir la norma llegarán hasta el seis por ciento de la facturación mundial de las compañías.',
      'Varias asociaciones empresariales advirtieron de que la ley encarecerá el desarrollo de nuevos productos en Europa.',
    ].join('\n'),
  }),
  article({
    id: 'la-vanguardia-ia',
    title: 'Barcelona abre un centro de investigación en inteligencia artificial',
    source: 'La Vanguardia',
    sourceId: 'la-vanguardia',
    language: 'es',
    publishedAt: '2026-11-19T09:00:00Z',
    content: [
      'Barcelona inauguró el martes un centro de investigación dedicado a la inteligencia artificial aplicada a la salud.',
      'El centro contará con ciento veinte investigadores y un presupuesto anual de treinta millones de euros.',
      '¿Podrá la ciudad competir con los grandes polos tecnológicos de Europa?',
    ].join('\n'),
  }),
];
