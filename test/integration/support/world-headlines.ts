// Headlines and leads in scripts the BBC corpus does not have: written without spaces between words
// (Japanese, Chinese, Korean, Thai, Khmer, Burmese, Lao) and spaced with combining marks (Hindi, Bengali,
// Tamil, Arabic), some mixed with Latin names and digits as news in those languages is. Written for the
// search tests, in the style of the catalog's sources in those languages.
export const worldHeadlines: { language: string; title: string; summary: string }[] = [
  {
    language: 'ja',
    title: '日本の首相が辞任を表明',
    summary: '首相は記者会見で、党の支持率低下を受けて辞任する意向を明らかにした。',
  },
  {
    language: 'ja',
    title: 'G7サミット、広島で開幕',
    summary: '主要7か国首脳会議（G7サミット）が19日、広島市で開幕した。ウクライナ情勢が主な議題となる。',
  },
  {
    language: 'ja',
    title: '日銀、マイナス金利政策を解除へ',
    summary: '日本銀行は金融政策決定会合で、2024年3月にマイナス金利の解除を決めた。17年ぶりの利上げとなる。',
  },
  {
    language: 'ja',
    title: 'トヨタ、過去最高益　円安が追い風',
    summary: 'トヨタ自動車の営業利益は5兆円を超え、過去最高を更新した。サーバー障害の影響は限定的だった。',
  },
  {
    language: 'ja',
    title: '東京都知事選、現職が3選',
    summary: '東京都知事選挙の投開票が行われ、現職の知事が3回目の当選を果たした。',
  },
  {
    language: 'zh',
    title: '中国央行宣布下调存款准备金率',
    summary: '中国人民银行表示，将下调金融机构存款准备金率0.5个百分点，以支持实体经济发展。',
  },
  {
    language: 'zh',
    title: '台风“杜苏芮”登陆福建',
    summary: '今年第5号台风在福建沿海登陆，当地政府已转移数万名群众。',
  },
  {
    language: 'zh',
    title: '香港股市收盘上涨，科技股领涨',
    summary: '恒生指数收涨1.2%，阿里巴巴和腾讯股价均上涨。',
  },
  {
    language: 'zh',
    title: '日本首相访问北京',
    summary: '日本首相抵达北京，与中国国家主席举行会谈，双方讨论了经济合作。',
  },
  {
    language: 'ko',
    title: '서울에서 한미 정상회담 개최',
    summary: '한국과 미국 정상은 서울에서 회담을 열고 북한 문제와 경제 협력을 논의했다.',
  },
  {
    language: 'ko',
    title: '한국은행, 기준금리 동결',
    summary: '한국은행 금융통화위원회는 기준금리를 연 3.5%로 동결했다.',
  },
  {
    language: 'th',
    title: 'กรุงเทพฯ เตรียมรับมือน้ำท่วมช่วงฤดูฝน',
    summary: 'กรุงเทพมหานครเร่งขุดลอกคูคลองเพื่อรับมือน้ำท่วมในฤดูฝนปีนี้',
  },
  {
    language: 'th',
    title: 'นายกรัฐมนตรีไทยเยือนญี่ปุ่น',
    summary: 'นายกรัฐมนตรีเดินทางเยือนโตเกียวเพื่อหารือด้านการค้าและการลงทุน',
  },
  {
    language: 'km',
    title: 'ព្រះរាជាណាចក្រកម្ពុជា បើកកិច្ចប្រជុំអាស៊ាន',
    summary: 'កិច្ចប្រជុំកំពូលអាស៊ានបានបើកនៅរាជធានីភ្នំពេញ',
  },
  {
    language: 'my',
    title: 'မြန်မာနိုင်ငံတွင် ငလျင်လှုပ်',
    summary: 'မန္တလေးမြို့အနီးတွင် ပြင်းအား ၇ ဒသမ ၇ ရှိ ငလျင်လှုပ်ခဲ့သည်',
  },
  {
    language: 'lo',
    title: 'ລາວເປີດທາງລົດໄຟໃໝ່',
    summary: 'ທາງລົດໄຟລາວ-ຈີນ ຂົນສົ່ງຜູ້ໂດຍສານຫຼາຍກວ່າລ້ານຄົນ',
  },
  {
    language: 'hi',
    title: 'भारत में हिन्दी समाचार चैनलों की संख्या बढ़ी',
    summary: 'नई दिल्ली में जारी रिपोर्ट के अनुसार हिन्दी समाचार देखने वालों की संख्या बढ़ रही है।',
  },
  {
    language: 'hi',
    title: 'प्रधानमंत्री ने G20 शिखर सम्मेलन को संबोधित किया',
    summary: 'प्रधानमंत्री ने नई दिल्ली में जी20 शिखर सम्मेलन में जलवायु परिवर्तन पर बात की।',
  },
  {
    language: 'bn',
    title: 'ঢাকায় বাংলা বইমেলা শুরু',
    summary: 'বাংলা একাডেমি প্রাঙ্গণে মাসব্যাপী বইমেলা শুরু হয়েছে।',
  },
  {
    language: 'ta',
    title: 'சென்னையில் கனமழை எச்சரிக்கை',
    summary: 'தமிழ்நாட்டின் கடலோர மாவட்டங்களில் கனமழை பெய்யும் என வானிலை மையம் தெரிவித்துள்ளது.',
  },
  {
    language: 'ar',
    title: 'البنك المركزي يرفع أسعار الفائدة',
    summary: 'قرر البنك المركزي رفع أسعار الفائدة بمقدار نصف نقطة مئوية لمواجهة التضخم.',
  },
];
