/**
 * Password rules beyond the length (2-administration §5.6 keeps the minimum of 6): the most used passwords, sequences
 * and the user's own CNPJ are refused. Browser-safe, so a form may check before it sends; the server always checks.
 *
 * The list: the passwords of 6 characters or more among the 1,000 most common of the "10 million passwords" list
 * (SecLists, MIT licence) and of the Brazilian Portuguese list of the same collection, plus a few Brazilian
 * favourites (senha123, mudar123…), lower-cased; a few hundred entries, about 4 KB compressed.
 */
const COMMON = new Set(
	`
123456 password 12345678 qwerty 123456789 111111 1234567 dragon 123123 baseball abc123 football monkey letmein 696969
shadow master 666666 qwertyuiop 123321 mustang 1234567890 michael 654321 superman 1qaz2wsx 7777777 121212 000000 qazwsx
123qwe killer trustno1 jordan jennifer zxcvbnm asdfgh hunter buster soccer harley batman andrew tigger sunshine iloveyou
charlie robert thomas hockey ranger daniel starwars klaster 112233 george computer michelle jessica pepper zxcvbn 555555
11111111 131313 freedom 777777 maggie 159753 aaaaaa ginger princess joshua cheese amanda summer ashley nicole chelsea
biteme matthew access yankees 987654321 dallas austin thunder taylor matrix william corvette martin heather secret
merlin diamond 1234qwer gfhjkm hammer silver 222222 88888888 anthony justin bailey q1w2e3r4t5 patrick internet scooter
orange golfer cookie richard samantha bigdog guitar jackson whatever mickey chicken sparky snoopy maverick phoenix
camaro peanut morgan welcome falcon cowboy ferrari samsung andrea smokey steelers joseph mercedes dakota arsenal eagles
melissa boomer spider nascar monster tigers yellow xxxxxx 123123123 gateway marina diablo bulldog qwer1234 compaq purple
hardcore banana junior hannah 123654 porsche lakers iceman cowboys 987654 london tennis 999999 ncc1701 coffee scooby
miller boston q1w2e3r4 brandon yamaha chester mother forever johnny edward 333333 oliver redsox player nikita knight
fender barney midnight please brandy chicago badboy slayer rangers charles flower bigdaddy rabbit wizard jasper rachel
steven winner adidas victoria natasha 1q2w3e4r jasmine winter prince marine ghbdtn fishing cocacola casper 232323
raiders 888888 marlboro gandalf asdfasdf crystal 87654321 12344321 golden 8675309 panther lauren angela spanky thx1138
angels madison winston shannon toyota jordan23 canada sophie apples 123abc pokemon qazxsw qwaszx muffin johnson murphy
cooper jonathan liverpoo danielle 159357 jackie 123456a 789456 turtle abcd1234 scorpion qazwsxedc 101010 butter carlos
password1 dennis slipknot qwerty123 booger startrek 12341234 cameron newyork rainbow nathan rocket viking redskins
asdfghjkl sierra peaches gemini doctor wilson sandra helpme qwertyui victor florida dolphin pookie captain tucker
liverpool theman bandit dolphins maddog packers jaguar lovers nicholas united tiffany maxwell zzzzzz nirvana jeremy
stupid monica elephant giants secret123 hotdog rosebud success debbie mountain 444444 xxxxxxxx warrior 1q2w3e4r5t q1w2e3
123456q albert metallic azerty bond007 alexis 1111111 samson willie scorpio bonnie gators benjamin voodoo driver dexter
calvin freddy 212121 creative 12345a sydney rush2112 asdfghjk red123 4815162342 passw0rd trouble gunner gordon legend
jessie stella eminem arthur nissan america 1qazxsw2 nothing parker rebecca qweqwe garfield 01012011 beavis 69696969
asdasd december 102030 252525 11223344 apollo skippy 315475 kitten copper braves shelby godzilla beaver tomcat august
airborne lifehack qqqqqq brooklyn animal platinum phantom online xavier darkness blink182 789456123 voyager police
travis 12qwaszx heaven snowball abcdef pakistan 007007 walter playboy blazer cricket sniper hooters donkey willow loveme
saturn therock redwings bigboy pumpkin trinity williams nintendo digital destiny topgun runner marvin guinness chance
bubbles testing november minecraft asdf1234 lasvegas sergey broncos cartman private celtic birdie little cassie babygirl
donald beatles family 12121212 school louise gabriel eclipse fluffy 147258369 lol123 explorer nelson flyers spencer
lovely gibson doggie cherry andrey snickers buffalo pantera metallica member carter qwertyu alexande bronco paradise
goober samuel montana mexico dreams michigan carolina yankee friends magnum surfer maximus genius vampire lacrosse
asd123 christin kimberly speedy sharon carmen 111222 kristina racing sabrina horses 0987654321 qwerty1 pimpin stalker
enigma 147147 poohbear 147258 simple 12345q marcus qweasdzxc drowssap hahaha caroline barbara drummer action einstein
genesis hello1 scotty friend forest 010203 hotrod google vanessa spitfire badger maryjane friday alaska 1232323q tester
jester champion 147852 hawaii badass 420420 walker stephen eagle1 october gregory svetlana pamela shorty westside
stanley diesel courtney 242424 hitman 12345qwert reddog qwe123 popcorn patricia aaaaaaaa teresa mozart buddha anderson
melanie abcdefg security lucky1 lizard denise a12345 123789 ruslan stargate simpsons scarface 123456789a thumper olivia
naruto 1234554321 general cherokee a123456 vincent spooky qweasd frankie douglas loveyou veronica suzuki semperfi
penguin mercury liberty spirit scotland natalie marley vikings system allison marshall 098765 qwerty12 hummer adrian
vfhbyf sandman leslie antonio 98765432 softball passion mnbvcxz passport rascal howard franklin bigred alexander redrum
jupiter claudia 55555555 141414 zaq12wsx patches raider infinity galore college russia kawasaki bishop 77777777 vladimir
money1 freeuser wildcats francis disney budlight brittany 00000000 oksana domino bulldogs brutus swordfis norman monday
ironman fantasy 7654321 duncan cougar jeffrey dancer brooke timothy marines justice digger connor patriots karina 202020
everton tinker alicia rasdzv3 pearljam stinky naughty colorado 123123a test123 ncc1701d motorola ireland houston boogie
zombie accord vision bradley reggie kermit froggy ducati avalon 9379992 saints logitech chopper 852456 simpson madonna
juventus claire 159951 zachary yfnfif wolverin warcraft hello123 extreme peekaboo fireman eugene brenda 123654789
russell panthers georgia skyline elizabet spiderma smooth pirate empire bullet virginia valentin psycho predator arizona
134679 mitchell alyssa vegeta titanic christ goblue fylhtq mmmmmm kirill indian hiphop baxter awesome people danger
roland mookie 741852963 1111111111 dreamer bambam arnold skipper serega rolltide changeme 1q2w3e lovelove fktrcfylh
denver loverboy hobbes happy1 alison nemesis chevelle cardinal burton picard 151515 tweety michael1 147852369 windows
turkey 456789 vfrcbv sublime galina newport manutd american alexandr victory rooster qqq111 madmax electric a1b2c3
wolfpack spring lalala spiderman darkside classic raptor 123456789q hendrix wombat avatar zxc123 england brazil 01011980
wildcat polina freepass 12345678910 123mudar 10203040 gvt12345 22446688 142536 mudar123 escola1234 brasil lucas123
pedro123 gabriel123 felipe123 matheus123 carlos123 rodrigo123 julia123 ana123 maria123 beatriz123 leticia123 fernanda123
anderson123 thiago123 marcelo123 bruno123 diego123 flamengo palmeiras corinthians santos cruzeiro botafogo gremio
atletico fluminense flamengo123 palmeiras123 corinthians123 mudar@123 admin@123 senha@123 temp@123 welcome1 mudar@2024
admin@2024 senha@2024 admin123 senha123 deusefiel jesussalva gloriaadeus tigrinho betano nubank pix123 claro12345
vivo12345 tim12345 intelbras intelbras123 fera@123 senha1 senha12 senha1234 senha12345 mudar1234 trocar123 acesso123
portal123 teste1 teste123 teste1234 brasil123 brasil10 admin1234 administrador senhasenha amor123 jesus123 deus123
saopaulo sao-paulo vasco123 gremio123 internacional sport123 bahia123 amorzinho cachorro gatinho princesa estrela
futebol familia mudar@2025 senha@2025 admin@2025 mudar@2026 senha@2026 admin@2026
`
		.trim()
		.split(/\s+/)
)

/** Keyboard rows and the alphabet: any six or more characters in a row of these, forwards or backwards, are a sequence. */
const RUNS = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm', '1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik9ol0p']

/** A repeated block (aaaaaa, 121212, abcabc, 12341234) or a run of the alphabet, the digits or a keyboard row. */
function isSequence(password: string): boolean {
	if (/^(.{1,4})\1+$/.test(password)) return true
	return RUNS.some((run) => run.includes(password) || [...run].reverse().join('').includes(password))
}

/** True for a password among the most used ones or a plain sequence, whatever its case. */
export function isCommonPassword(password: string): boolean {
	const lower = password.toLowerCase()
	return COMMON.has(lower) || isSequence(lower)
}

/** True when the password is the user's CNPJ (with or without its mask), its first eight characters, or contains it. */
export function passwordUsesCnpj(password: string, cnpj: string): boolean {
	const bare = password.toUpperCase().replace(/[^0-9A-Z]/g, '')
	return bare === cnpj.slice(0, 8) || bare.includes(cnpj)
}

export const PASSWORD_MESSAGES = {
	common: 'Senha muito comum: escolha uma senha que não esteja entre as mais usadas nem seja uma sequência (como 123456 ou abcdef).',
	cnpj: 'A senha não pode ser o seu CNPJ.'
}
