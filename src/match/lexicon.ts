/**
 * Word lists the name matcher classifies tokens with. All entries are lower-case ASCII, as the
 * tokenizer produces them. Lists, not regexes: a Set lookup per token is the cheapest test in the
 * hot path, and a reviewer can read (and extend) a list.
 */

/**
 * Titles dropped from the front of a name (repeatedly: "Mr. Dr. X"). Only at the front, because
 * several double as name parts elsewhere ("Priya Kumari", "Venkata Sri Lakshmi").
 */
export const HONORIFICS: ReadonlySet<string> = new Set([
  'mr', 'mrs', 'ms', 'miss', 'mx', 'master', 'mstr', 'baby', 'dr', 'prof', 'professor',
  'shri', 'sri', 'shree', 'sree', 'sh', 'smt', 'shrimati', 'srimati', 'srimathi', 'shrimathi',
  'sushri', 'kumari', 'kum', 'ku', 'messrs', 'messers', 'late', 'lt',
  'thiru', 'tiru', 'thirumathi', 'tmt', 'selvi', 'sow', 'janab', 'mst', 'mohtarma',
  'haji', 'hazi', 'hafiz', 'sardar', 'sardarni', 'pandit', 'er', 'adv', 'advocate',
  'capt', 'captain', 'col', 'maj', 'major', 'gen', 'brig', 'cdr', 'rev', 'fr', 'sr', 'sis',
  'hon', 'justice', 'sou', 'sau', 'km', 'selvan', 'tirumathi', 'thirumati',
]);

/**
 * Relation words written out: "son of", "daughter of", … Everything from the marker on names a
 * different person (the father, the husband, the guardian), so it is cut off.
 */
export const RELATION_WORDS: ReadonlySet<string> = new Set([
  'son', 'daughter', 'wife', 'husband', 'care', 'father', 'guardian',
]);

/** Bare two-letter relation markers as banks print them without the slash ("SO", "DO", "WO"). */
export const BARE_RELATION_MARKERS: ReadonlySet<string> = new Set(['so', 'do', 'wo']);

/** Letters that form a relation marker when written `X/O` (S/o, D/o, W/o, H/o, C/o). */
export const SLASH_RELATION_LETTERS: ReadonlySet<string> = new Set(['s', 'd', 'w', 'h', 'c']);

/** Generation suffixes: father and son share the name and differ only here. */
export const GENERATIONS: ReadonlyMap<string, 'senior' | 'junior' | 'third'> = new Map([
  ['sr', 'senior'], ['senior', 'senior'], ['snr', 'senior'],
  ['jr', 'junior'], ['junior', 'junior'], ['jnr', 'junior'], ['ii', 'junior'], ['2nd', 'junior'],
  ['iii', 'third'], ['3rd', 'third'],
]);

/**
 * Legal-form words: they say what kind of entity it is but not which one, so two business names
 * that differ only here are the same business. Dropped from the tokens, remembered as "business".
 */
export const LEGAL_FORMS: ReadonlySet<string> = new Set([
  'pvt', 'pvtltd', 'private', 'privatelimited', 'privateltd', 'pte', 'ltd', 'limited', 'ltd.', 'llp', 'co', 'cos', 'company', 'coy',
  'corp', 'corpn', 'corporation', 'inc', 'incorporated', 'opc', 'plc', 'llc', 'gmbh', 'pl',
]);

/** Stop words dropped everywhere ("&" and "and" join partners; "the"/"of" carry nothing). */
export const STOP_WORDS: ReadonlySet<string> = new Set(['&', 'and', 'the', 'of']);

/**
 * Business descriptors: the words that name a line of business. Unlike legal forms they tell two
 * businesses apart ("Balaji Traders" is not "Balaji Motors"), so they stay as tokens. The matcher
 * uses the words listed here, not the groups: each keeps its own word as its key, and only the
 * spellings in DESCRIPTOR_SPELLINGS fold together (Electricals is not Electronics).
 */
export const BUSINESS_DESCRIPTORS: ReadonlyMap<string, string> = new Map(
  (
    [
      ['enterprises', ['enterprise', 'enterprises', 'enterprize', 'enterprizes', 'ent', 'ents', 'entp']],
      ['traders', ['trader', 'traders', 'trading', 'tradings', 'trdrs']],
      ['industries', ['industry', 'industries', 'inds', 'udyog']],
      ['agencies', ['agency', 'agencies']],
      ['associates', ['associate', 'associates', 'assoc']],
      ['solutions', ['solution', 'solutions']],
      ['services', ['service', 'services', 'svcs']],
      ['technologies', ['technology', 'technologies', 'tech', 'techno', 'technosoft', 'infotech', 'software', 'softwares']],
      ['systems', ['system', 'systems']],
      ['consultants', ['consultant', 'consultants', 'consultancy', 'consulting']],
      ['builders', ['builder', 'builders', 'developers', 'developer', 'construction', 'constructions', 'infra', 'infrastructure', 'infratech', 'projects']],
      ['exports', ['export', 'exports', 'exporters', 'exporter', 'impex', 'import', 'imports', 'importers']],
      ['motors', ['motor', 'motors', 'automobiles', 'automobile', 'autos', 'garage']],
      ['textiles', ['textile', 'textiles', 'fabrics', 'garments', 'cloth', 'sarees', 'handloom', 'handlooms']],
      ['pharma', ['pharma', 'pharmaceuticals', 'pharmaceutical', 'pharmacy', 'medicals', 'medical', 'chemists', 'chemist', 'drugs', 'healthcare']],
      ['foods', ['food', 'foods', 'caterers', 'catering', 'restaurant', 'hotel', 'hotels', 'bakery', 'sweets', 'dairy']],
      ['logistics', ['logistics', 'transport', 'transports', 'carriers', 'carrier', 'travels', 'tours', 'couriers', 'courier', 'roadlines', 'movers']],
      ['electricals', ['electrical', 'electricals', 'electronics', 'electric']],
      ['jewellers', ['jeweller', 'jewellers', 'jewelers', 'jewellery', 'gems']],
      ['stores', ['store', 'stores', 'mart', 'supermarket', 'bhandar', 'emporium', 'provisions', 'general', 'kirana']],
      ['brothers', ['brothers', 'bros', 'brother']],
      ['sons', ['sons']],
      ['international', ['international', 'intl', 'global', 'overseas', 'worldwide']],
      ['ventures', ['venture', 'ventures', 'holdings', 'investments', 'capital', 'finance', 'financial', 'finserv', 'fincorp']],
      ['group', ['group']],
      ['works', ['works', 'workshop', 'engineering', 'engineers', 'fabricators', 'mills', 'mill', 'factory', 'manufacturing']],
      ['trust', ['trust', 'foundation', 'society', 'samiti', 'sangh', 'sansthan', 'mandal', 'ngo', 'charitable']],
      ['hospital', ['hospital', 'hospitals', 'clinic', 'nursing', 'diagnostics', 'labs', 'laboratories', 'laboratory']],
      ['school', ['school', 'college', 'academy', 'institute', 'vidyalaya', 'education', 'educational']],
      ['huf', ['huf']],
      ['products', ['product', 'products', 'suppliers', 'supplier', 'supply', 'distributors', 'distributor', 'distribution', 'marketing', 'dealers', 'dealer']],
      ['printers', ['printers', 'press', 'prints', 'publications', 'publishers', 'media', 'studio', 'studios', 'communications', 'advertising']],
      ['metals', ['steel', 'steels', 'metals', 'metal', 'alloys', 'plastics', 'polymers', 'chemicals', 'paints', 'cement', 'hardware', 'tyres', 'spares']],
      ['agro', ['agro', 'agri', 'agritech', 'farms', 'farm', 'seeds', 'fertilisers', 'fertilizers', 'nursery']],
      ['realty', ['realty', 'realtors', 'estates', 'estate', 'properties', 'housing', 'homes']],
      ['india', ['india']],
      ['centre', ['centre', 'center', 'house', 'point', 'world', 'zone', 'hub']],
    ] as const
  ).flatMap(([canonical, words]) => words.map((word): [string, string] => [word, canonical])),
);

/**
 * Words that appear in a huge share of Indian names (honorific middle names, community names,
 * gender markers) and so say little about who the person is: "Suresh Kumar" and "Ramesh Kumar"
 * share a word and nothing else. They get FILLER_WEIGHT instead of 1.
 */
export const FILLERS: ReadonlySet<string> = new Set([
  'kumar', 'kumari', 'devi', 'bai', 'bi', 'lal', 'singh', 'kaur', 'ben', 'behn', 'bhai', 'begum',
  'muhammad', 'sri', 'shri', 'shree', 'kunwar', 'rani', 'bibi', 'khatun', 'khatoon', 'nisa', 'nissa',
]);

/**
 * Abbreviations and spellings that phonetic rules cannot reach (a dropped vowel, a different
 * vowel), mapped to one canonical spelling before the phonetic key is taken.
 */
export const ALIASES: ReadonlyMap<string, string> = new Map(
  (
    [
      ['muhammad', ['md', 'mohd', 'mhd', 'mohammed', 'mohammad', 'muhammed', 'mohamed', 'mohamad', 'muhamad', 'mohammod', 'mahammad', 'mahamad', 'mohmmad', 'mohmad', 'mohmed', 'mahmmad', 'muhamed', 'mohamood', 'mohmd']],
      ['kumar', ['kr', 'kmr', 'kumaar']],
      ['prasad', ['pd', 'prasd', 'pras', 'parsad']],
      ['devi', ['debi']],
      ['laxmi', ['luxmi', 'lakhsmi', 'laksmi', 'lakshmee']],
      ['shaikh', ['sheikh', 'shaik', 'shekh', 'seikh', 'shiekh', 'sheik', 'shekih']],
      ['syed', ['sayed', 'saiyed', 'sayyed', 'syyed', 'saiyad', 'sayyad', 'sayad', 'saiyyad', 'syad']],
      ['chaudhary', ['chaudhari', 'choudhary', 'choudhury', 'chowdhury', 'chowdhary', 'chaudhry', 'choudhari', 'chaudhuri', 'chowdary', 'choudary', 'chaudhury', 'chowdhari', 'chowdry', 'choudhry']],
      ['agarwal', ['agrawal', 'aggarwal', 'agarwala', 'aggrawal', 'agrwal', 'agarwall', 'agrawala']],
      ['banerjee', ['banerji', 'bannerjee', 'banarjee', 'bandyopadhyay', 'bandopadhyay']],
      ['mukherjee', ['mukerji', 'mukherji', 'mukharjee', 'mukhopadhyay']],
      ['chatterjee', ['chatterji', 'chaterjee', 'chattopadhyay']],
      ['ganguly', ['ganguli', 'gangooly', 'gangopadhyay']],
      ['abdul', ['abdool', 'abdur', 'abdus', 'abdel']],
      ['rahman', ['rehman', 'rahaman', 'rehaman']],
      ['ahmed', ['ahmad', 'ahamed', 'ahammed', 'ahemad']],
      ['khan', ['kahn']],
      ['krishna', ['krushna', 'krisna']],
      ['narayan', ['narayana', 'narain', 'narayen']],
      ['srinivas', ['srinivasa', 'shreenivas', 'shrinivas', 'sreenivasa', 'shrinivasa', 'srinivasu']],
      ['venkatesh', ['venkatesha']],
      ['gupta', ['gupt']],
      ['yadav', ['yadava']],
      ['fernandes', ['fernandez', 'fernandis']],
      ['dsouza', ['desouza', 'dsousa', 'souza', 'sousa']],
      ['joseph', ['josef']],
      ['mathew', ['matthew', 'mathews', 'matthews']],
      ['thomas', ['tomas']],
      ['goyal', ['goel', 'goyel']],
      ['chandra', ['chander', 'chandar']],
      ['iyer', ['aiyar', 'ayyar', 'aiyer', 'ayyer']],
      ['iyengar', ['ayyangar', 'aiyangar', 'iyangar']],
      ['nair', ['nayar', 'nayyar']],
      ['bose', ['basu']],
      ['qureshi', ['kureshi', 'quraishi', 'qureishi', 'kuraishi']],
      ['pillai', ['pillay']],
      ['naidu', ['naidoo']],
      ['bhattacharya', ['bhattacharyya', 'bhattacharjee', 'bhattacharji']],
      ['chakraborty', ['chakravarty', 'chakrabarti', 'chakraborti', 'chakravarthy', 'chakravarti']],
      ['shetty', ['setty']],
      ['upadhyay', ['upadhaya', 'upadhyaya', 'upadhya']],
      ['subramanian', ['subramaniam', 'subramanyam', 'subrahmanyam', 'subramanyan', 'subramanyan']],
      ['trivedi', ['tribedi']],
      ['singh', ['sinh', 'sinhji', 'singhji']],
      ['hussain', ['husain', 'hussein', 'hossain', 'husen', 'hussan']],
      ['yusuf', ['yousuf', 'yusaf', 'yousaf', 'yusuff']],
      // Issue #28: spellings the sources give for one name.
      ['senthil', ['sendhil', 'senthill']],
      ['aisha', ['ayesha', 'aysha', 'ayisha', 'ayeshah']],
      ['lalduhawma', ['lalduhoma']],
      ['pal', ['paul']],
      ['dutta', ['dutt', 'datta']],
      ['bhatt', ['bhat']],
      ['vikas', ['vikash']],
      ['srivastava', ['shrivastava', 'srivastav', 'shrivastav', 'shrivastwa', 'srivastwa']],
      // The East's and the South's written forms of common names (Bengali, Assamese, Odia and
      // Tamil spellings write s for sh and e or o for a): the lexicon attests each spelling, so
      // only a list makes them one name — where Das / Dash or Shah / Sah stay two.
      ['ghosh', ['ghose']],
      ['tiwari', ['tewari', 'tiwary', 'tewary']],
      ['ashok', ['asok', 'asoke']],
      ['shyam', ['syam']],
      ['sekhar', ['shekhar', 'sekar', 'shekar']],
      ['chandrasekhar', ['chandrashekhar', 'chandrasekar', 'chandrashekar']],
      ['ramachandran', ['ramchandran']],
    ] as const
  ).flatMap(([canonical, words]) => words.map((word): [string, string] => [word, canonical])),
);

/**
 * Common Indian given names and surnames, one spelling each. Two different names from this list
 * are different people even when they are one letter apart (Rajesh/Rakesh, Priya/Piya,
 * Patel/Patil, Arun/Aruna), so the typo tolerance is switched off between them. Names whose
 * spellings differ only by the phonetic rules (Deepak/Dipak) need only one entry.
 */
export const KNOWN_NAMES: readonly string[] = [
  // given names, male
  'aakash', 'abhay', 'abhishek', 'aditya', 'ajay', 'ajit', 'akhil', 'akshay', 'alok', 'aman', 'amar',
  'amit', 'amol', 'anand', 'anil', 'ankit', 'ankur', 'anuj', 'anup', 'arjun', 'arun', 'arvind', 'ashish',
  'ashok', 'ashwin', 'atul', 'avinash', 'balaji', 'bharat', 'bhushan', 'chetan', 'deepak', 'dev',
  'dhruv', 'dilip', 'dinesh', 'gaurav', 'girish', 'gopal', 'govind', 'hari', 'harish', 'hemant',
  'hitesh', 'jagdish', 'jatin', 'jay', 'jitendra', 'jitesh', 'kamal', 'kamlesh', 'kapil', 'karan',
  'kartik', 'kiran', 'kishore', 'lalit', 'lokesh', 'madhav', 'mahesh', 'manish', 'manoj', 'mayank',
  'mohan', 'mohit', 'mukesh', 'munish', 'nagesh', 'naman', 'naresh', 'naveen', 'nikhil', 'nilesh',
  'nitesh', 'nitin', 'pankaj', 'paresh', 'pawan', 'pradeep', 'prakash', 'pramod', 'prashant',
  'praveen', 'prem', 'raghav', 'rahul', 'raj', 'rajan', 'rajat', 'rajeev', 'rajendra', 'rajesh',
  'raju', 'rakesh', 'ram', 'raman', 'ramesh', 'ravi', 'rohan', 'rohit', 'ritesh', 'rupesh', 'sachin',
  'sagar', 'sahil', 'sameer', 'sandeep', 'sanjay', 'sanjeev', 'santosh', 'satish', 'shankar',
  'shyam', 'siddharth', 'sohan', 'sumit', 'sunil', 'suraj', 'suresh', 'surendra', 'sushil', 'tarun',
  'tushar', 'uday', 'umesh', 'varun', 'vijay', 'vikas', 'vikram', 'vinay', 'vinod', 'vipin', 'vishal',
  'vivek', 'yash', 'yogesh', 'narendra', 'mahendra', 'virendra', 'devendra', 'dharmendra', 'upendra',
  'gajendra', 'yogendra', 'rajiv', 'sunny', 'bunty', 'montu', 'pintu', 'rinku', 'sonu', 'monu', 'raja',
  'rama', 'ramana', 'ramakrishna', 'ramakrishnan', 'radhakrishnan', 'gopalakrishnan', 'radhakrishna', 'murali', 'karthik', 'senthil', 'kannan', 'murugan',
  'ganesh', 'suman', 'sudhir', 'sudhakar', 'prabhakar', 'bhaskar', 'shekhar', 'sekar', 'jagan',
  'mohammed', 'irfan', 'imran', 'salim', 'salman', 'sameer', 'asif', 'arif', 'aziz', 'rafiq', 'rashid',
  'javed', 'zahid', 'sajid', 'wasim', 'nasir', 'tariq', 'faisal', 'farhan', 'harpreet', 'gurpreet',
  'manpreet', 'jaspreet', 'amandeep', 'harjeet', 'manjeet', 'gurdeep', 'kuldeep', 'jasvinder',
  'sukhvinder', 'balvinder', 'paramjit', 'ranjit', 'inderjit', 'kamaljit', 'subhash', 'sourav',
  'saurabh', 'subrata', 'debashis', 'partha', 'tapan', 'tapas', 'biswajit', 'anirban',
  'arnab', 'sudip', 'sujit', 'ranjan', 'niranjan', 'pranav', 'keshav', 'madhu', 'manu',
  'hemraj', 'hansraj', 'balram', 'baldev', 'sukhdev', 'jaydev', 'mahadev', 'vasudev',
  // given names, female
  'aarti', 'aishwarya', 'akanksha', 'alka', 'amita', 'anita', 'anjali', 'anjana', 'ankita', 'anu',
  'anuradha', 'anusha', 'aparna', 'archana', 'aruna', 'asha', 'bharti', 'bhavna', 'chitra', 'deepa',
  'deepika', 'divya', 'diya', 'gayatri', 'geeta', 'hema', 'indira', 'jyoti', 'kajal', 'kalpana',
  'kanchan', 'kavita', 'kavya', 'khushi', 'kiran', 'komal', 'lata', 'laxmi', 'lalita',
  'madhuri', 'mamta', 'manju', 'meena', 'meera', 'megha', 'mona', 'monika', 'neelam', 'neeta', 'neha',
  'nidhi', 'nisha', 'nita', 'pallavi', 'pinki', 'pooja', 'poonam', 'prabha', 'pratibha', 'preeti',
  'priya', 'priyanka', 'piya', 'radha', 'rani', 'rashmi', 'reena', 'rekha', 'renu', 'richa', 'rita',
  'ritu', 'riya', 'ruchi', 'rupa', 'sadhana', 'sangeeta', 'sapna', 'sarita', 'savita', 'seema', 'shalini',
  'shanti', 'sheela', 'shilpa', 'shobha', 'shweta', 'simran', 'sita', 'smita', 'sneha', 'sonal',
  'sonia', 'suman', 'sumita', 'sunita', 'swati', 'tanvi', 'uma', 'usha', 'vandana', 'varsha',
  'vidya', 'vinita', 'anitha', 'lekha', 'leela', 'heena', 'teena', 'tina', 'mina', 'sima', 'gita',
  'nirmala', 'kamala', 'vimala', 'shyamala', 'padma', 'lakshmi', 'saraswati', 'parvati', 'durga',
  'ayesha', 'fatima', 'shabana', 'farah', 'nazia', 'rubina', 'salma', 'sana', 'zainab', 'rukhsana',
  'harleen', 'jasleen', 'navneet', 'gurleen', 'manisha', 'mausumi', 'moumita', 'sharmila', 'mitali',
  'susmita', 'sushmita', 'payal', 'rupali', 'sonali', 'deepali', 'vaishali', 'shefali', 'anjum',
  'ramya', 'divyashree', 'bhavya', 'sowmya', 'kavitha', 'latha', 'geetha', 'mala', 'malini', 'shanthi',
  'janaki', 'revathi', 'gowri', 'parul', 'pushpa', 'kusum', 'urmila', 'sushila', 'shakuntala',
  'asmita', 'amrita', 'arpita', 'namita', 'babita',
  // surnames
  'sharma', 'verma', 'varma', 'gupta', 'singh', 'kumar', 'yadav', 'patel', 'patil', 'shah', 'sah',
  'jain', 'jha', 'mishra', 'tiwari', 'tripathi', 'pandey', 'dubey', 'dwivedi', 'trivedi', 'chaturvedi',
  'joshi', 'mehta', 'mehra', 'malhotra', 'kapoor', 'khanna', 'chopra', 'arora', 'bhatia', 'sethi',
  'agarwal', 'bansal', 'goyal', 'mittal', 'singhal', 'jindal', 'garg', 'saxena', 'srivastava',
  'nair', 'naik', 'menon', 'pillai', 'iyer', 'iyengar', 'rao', 'roy', 'reddy', 'naidu', 'raju',
  'das', 'dutta', 'ghosh', 'bose', 'basu', 'sen', 'sinha', 'sarkar', 'mandal',
  'pal', 'biswas', 'chakraborty', 'banerjee', 'mukherjee', 'chatterjee', 'bhattacharya', 'dey',
  'kulkarni', 'deshpande', 'deshmukh', 'jadhav', 'pawar', 'shinde', 'more', 'gaikwad', 'kale',
  'kadam', 'chavan', 'thakur', 'thakkar', 'desai', 'bhatt', 'modi', 'parikh', 'chauhan', 'rathore',
  'rajput', 'tomar', 'rana', 'negi', 'rawat', 'bisht', 'gill', 'sandhu', 'sidhu', 'grewal', 'dhillon',
  'khan', 'ahmed', 'ansari', 'qureshi', 'siddiqui', 'hussain', 'ali', 'shaikh', 'syed', 'pathan',
  'mirza', 'baig', 'malik', 'sheikh', 'fernandes', 'dsouza', 'pereira', 'rodrigues', 'dias', 'gomes',
  'thomas', 'joseph', 'george', 'mathew', 'jacob', 'john', 'abraham', 'kurian', 'chacko', 'francis',
  'krishnan', 'subramanian', 'venkatesan', 'raman', 'natarajan', 'rajan', 'murthy', 'hegde', 'shetty',
  'kamath', 'bhat', 'prabhu', 'shenoy', 'pai', 'gowda', 'chaudhary', 'saini',
];

/**
 * Masculine given names that end in -a. A final -a usually marks the feminine form of a given
 * name (Vimal / Vimala, Amit / Amita), so the matcher treats the two as different people; for
 * these names (and names ending in -ndra / -dra) the -a is the inherent vowel written out
 * (Shiv / Shiva, Krishn / Krishna) and the two are one name.
 */
export const MASCULINE_A_NAMES: ReadonlySet<string> = new Set([
  'krishna', 'shiva', 'siva', 'rama', 'ganesha', 'surya', 'narayana', 'venkata', 'ramana', 'raja', 'rana',
  'brahma', 'hanumantha', 'lakshmana', 'bhima', 'arjuna', 'satya', 'deva', 'mahadeva', 'vasudeva', 'shankara',
  'yoga', 'atma', 'aditya', 'chaitanya', 'krupa', 'prabha', 'dharma', 'karma', 'om', 'buddha', 'mohana',
  'gopala', 'madhava', 'keshava', 'raghava', 'sharma', 'verma', 'varma', 'gupta', 'mishra', 'dutta',
]);

/** A masculine name whose final -a is the inherent vowel written out (Shiva, Manjunatha, Rajendra, Nagaraja). */
export function isMasculineAName(text: string): boolean {
  if (text.length < MIN_MASCULINE_A_LENGTH) return false;
  // -eesha is the long vowel of a woman's name (Aneesha, Maneesha beside Aneesh, Maneesh); the
  // Kannada masculine -esha is a short e (Ganesha, Suresha, Venkatesha).
  return MASCULINE_A_NAMES.has(text) || /(ndra|natha|(?<!e)esha|narayana|raja)$/.test(text);
}

/**
 * Shortest name (with its -a) whose written-out -a is read as the inherent vowel: a name of three
 * letters with an -a more is another word (Raj / Raja, Dev / Deva, Ran / Rana, as Sen / Sena).
 */
export const MIN_MASCULINE_A_LENGTH = 5;

/**
 * Gujarati respect suffixes written after a given name, joined or apart (Rameshbhai, Hetal ben).
 * They are forms of address, not part of who the person is.
 */
export const RESPECT_SUFFIXES: readonly string[] = ['bhai', 'ben', 'behn', 'bhen'];

/**
 * Spellings and short forms of one business descriptor. Only these fold together: every other
 * descriptor keeps its own word, because two firms that share a name but not a line of business
 * (Electricals / Electronics, Engineering / Enterprises, Traders / Textiles) are two firms.
 */
export const DESCRIPTOR_SPELLINGS: ReadonlyMap<string, string> = new Map(
  (
    [
      ['enterprises', ['enterprise', 'enterprize', 'enterprizes', 'ent', 'ents', 'entp']],
      ['traders', ['trader', 'trading', 'tradings', 'trdrs']],
      ['industries', ['industry', 'inds', 'ind']],
      ['agencies', ['agency']],
      ['associates', ['associate', 'assoc']],
      ['brothers', ['bros', 'brother']],
      ['international', ['intl']],
      ['services', ['svcs']],
      ['pharma', ['pharmaceuticals', 'pharmaceutical']],
      ['jewellers', ['jewelers', 'jeweller']],
      ['technologies', ['technology', 'tech']],
      ['exports', ['exporters', 'exporter']],
      ['constructions', ['construction']],
      ['engineering', ['engg', 'engineerings']],
      ['manufacturing', ['mfg', 'mfrs', 'manufacturers', 'manufacturer', 'manufactures']],
    ] as const
  ).flatMap(([canonical, words]) => words.map((word): [string, string] => [word, canonical])),
);
