/**
 * Hand-written demo articles, in English and Vietnamese, that `seed:demo` always includes among
 * its posts (published, with these slugs and tags). The search bench's judged relevance set
 * (scripts/search-judged.json) names the post each of its queries must find by these slugs, so
 * the generated posts' word salad (seed-demo.ts WORDS) is the competition, not the target: each
 * article has its own vocabulary, and some of the judged queries share words with the salad.
 * Changing an article's text can change the bench's relevance score: run the `search` phase after.
 */
export interface DemoArticle {
  slug: string;
  title: string;
  summary: string;
  /** Tag names; tags that seed:demo does not create already are created with the article. */
  tags: string[];
  markdown: string;
}

export const DEMO_ARTICLES: readonly DemoArticle[] = [
  {
    slug: 'keeping-a-sourdough-starter-alive-in-a-small-kitchen',
    title: 'Keeping a Sourdough Starter Alive in a Small Kitchen',
    summary:
      'Flour, water, a jar and a routine that fits a busy week: how I kept the same starter going for three years without a proofing box.',
    tags: ['Baking'],
    markdown: `A sourdough starter is a colony of wild yeast and lactic acid bacteria living in a paste of flour and water. It asks for very little: regular feeding, a steady temperature and a clean jar. In a small flat with no room for a proofing box, the hardest part is keeping it warm enough in winter and cool enough in August.

## Feeding on a schedule you can keep

I feed mine once a day at a ratio of one part starter, two parts rye flour and two parts water by weight. Rye ferments faster than white flour and gives the culture more to eat, so the starter doubles in six to eight hours at room temperature. When I know I will not bake for a week, the jar goes into the fridge right after a feed and wakes up again with two feeds at room temperature.

## Reading the jar

A healthy starter smells sour and a little like yoghurt. A layer of grey liquid on top, called hooch, only means it is hungry: pour it off and feed it. Pink or orange streaks are different; they mean the culture has been overrun, and the only fix is to start again.

## Baking the first loaf

Use the starter at its peak, when it has doubled and is full of bubbles. A spoonful dropped in water should float. Mix the levain the evening before, and let the dough rise slowly overnight in the fridge: the long, cold fermentation gives the crumb its open holes and the crust its deep colour.`,
  },
  {
    slug: 'why-autovacuum-falls-behind-on-busy-tables',
    title: 'Why Autovacuum Falls Behind on Busy Tables',
    summary:
      'Dead tuples, bloated indexes and a table that grows while its row count stays flat: tuning autovacuum thresholds for tables with heavy updates.',
    tags: ['PostgreSQL', 'Databases', 'Performance'],
    markdown: `PostgreSQL never updates a row in place. An UPDATE writes a new version of the row and marks the old one dead; a DELETE only marks it. Autovacuum is the background worker that later reclaims those dead tuples so that their space can be reused. On a table that takes thousands of updates a second, the default settings let dead tuples pile up faster than the worker removes them.

## The thresholds are proportional

By default a table is vacuumed once its dead tuples exceed 50 rows plus 20 percent of its size. For a table of a hundred million rows that is twenty million dead tuples before anything happens. Setting \`autovacuum_vacuum_scale_factor\` to 0.01 on the busy table alone, with \`ALTER TABLE ... SET (...)\`, keeps the bloat small without making every small table vacuum constantly.

## Cost limits slow it down on purpose

Autovacuum sleeps whenever it has done \`autovacuum_vacuum_cost_limit\` units of work, so that it never starves the application of disk bandwidth. On modern SSDs the default limit is far too cautious. Raising it, or giving the worker a shorter cost delay, lets one pass finish in minutes instead of hours.

## Long transactions block everything

A dead tuple can only be removed when no open transaction might still see it. One forgotten session sitting idle in transaction for a day holds back the cleanup of every table in the database. Watch \`pg_stat_activity\` for old \`xact_start\` values and set \`idle_in_transaction_session_timeout\` so that such sessions end on their own.`,
  },
  {
    slug: 'lifetimes-without-tears-reading-the-borrow-checker-errors',
    title: "Lifetimes Without Tears: Reading the Borrow Checker's Errors",
    summary:
      "Rust's compiler explains what it refuses and why. Three error messages every newcomer meets, and the ownership rule behind each one.",
    tags: ['Rust'],
    markdown: `Every Rust newcomer spends a week arguing with the borrow checker. The arguments end sooner once you notice that its error messages are precise: each one names a value, the place where it was borrowed and the place where the borrow is still needed. The rule behind them fits in one sentence: at any moment a value has either one mutable reference or any number of shared ones, never both.

## Cannot borrow as mutable because it is also borrowed as immutable

This appears when you keep a reference into a vector and then push onto it. Pushing may reallocate the vector's buffer, which would leave your reference pointing at freed memory. Copy the value out, or finish using the reference before the push.

## Borrowed value does not live long enough

A function returned a reference to something created inside it. When the function returns, the local value is dropped, so the reference would dangle. Return the owned value instead, and let the caller decide where it lives.

## Explicit lifetime annotations

Annotations such as \`'a\` do not change how long anything lives. They only tell the compiler how the lifetimes of inputs and outputs relate, so that it can check the callers. Most functions never need them because the elision rules fill them in.`,
  },
  {
    slug: 'testing-forms-with-a-screen-reader-before-release',
    title: 'Testing Forms With a Screen Reader Before Release',
    summary:
      'Automated checkers catch missing labels, but only listening to the form tells you whether it makes sense. A fifteen-minute routine with NVDA and VoiceOver.',
    tags: ['Accessibility', 'Testing'],
    markdown: `Automated accessibility checkers find missing labels, low contrast and empty buttons. They cannot tell you whether a sign-up form makes sense when you only hear it. Before every release I spend fifteen minutes going through our forms with NVDA on Windows and VoiceOver on a Mac, keyboard only, eyes closed for the first pass.

## What to listen for

Every field should announce its label, its type and whether it is required. Error messages must be announced when they appear, not only painted red: link each message to its field with \`aria-describedby\`, and move focus to the first invalid field when the form is submitted.

## Grouped controls

Radio buttons and checkboxes belong in a fieldset with a legend. Without it, a screen reader user hears "Yes, radio button, one of two" and has no idea what question is being answered.

## Write down what you heard

Keep a short log per form: what the reader announced, what you expected and what you changed. After a few releases the log becomes the checklist new developers read before they build their first form.`,
  },
  {
    slug: 'photographing-the-milky-way-without-a-tracker',
    title: 'Photographing the Milky Way Without a Tracker',
    summary: 'A wide lens, a sturdy tripod and the 500 rule: night sky photography with the camera you already own.',
    tags: ['Photography', 'Astronomy'],
    markdown: `You do not need a motorised star tracker to photograph the Milky Way. A camera that shoots raw, a wide and fast lens and a tripod that does not shake in the wind are enough for a sharp image of the galactic core on a moonless night.

## Find real darkness

Light pollution washes out the faint dust lanes. Drive at least an hour away from the nearest city, check a light pollution map and plan the trip around the new moon. From the northern hemisphere the core is highest in the southern sky between May and August.

## The 500 rule

Because the Earth turns, stars become short trails in long exposures. Divide 500 by the focal length of your lens to get the longest exposure in seconds before the trails show: about 25 seconds at 20 mm on a full-frame body. Open the aperture fully and raise the ISO to 3200 or 6400.

## Focus on a bright star

Autofocus gives up in the dark. Switch to manual focus, zoom in on a bright star in live view and turn the ring until the star is the smallest possible point. Take ten frames in a row; stacking them later removes most of the noise.`,
  },
  {
    slug: 'growing-tomatoes-on-a-windy-balcony',
    title: 'Growing Tomatoes on a Windy Balcony',
    summary: 'Cherry varieties, deep pots and a wind break made from an old bed sheet: a season of tomatoes eleven floors up.',
    tags: ['Gardening'],
    markdown: `Eleven floors up, the wind is the first thing that tries to kill a tomato plant. It dries the soil in an afternoon, snaps the stems and knocks off the flowers before they are pollinated. After two failed summers I found a routine that gives us a bowl of cherry tomatoes every week from July to October.

## Choose compact varieties

Tall indeterminate plants catch too much wind. Bush varieties such as Tumbling Tom or Maskotka stay under sixty centimetres and fruit heavily. Plant them in pots of at least twenty litres: a small pot dries out before you get home from work.

## Break the wind

An old bed sheet tied across the railing on the windward side cut the gusts enough for the flowers to set fruit. Plastic mesh works too, and it lets more light through.

## Water deeply, feed lightly

Water in the morning until it runs out of the drainage holes, and again in the evening during a heatwave. Uneven watering splits the fruit. A tomato feed rich in potassium once a week after the first flowers appear is all the plants need.`,
  },
  {
    slug: 'commuting-by-bicycle-through-a-northern-winter',
    title: 'Commuting by Bicycle Through a Northern Winter',
    summary: 'Studded tyres, lights that stay on and clothes in layers: what kept me riding to work from November to March.',
    tags: ['Cycling'],
    markdown: `When the first snow falls, most of the bicycles disappear from our street. Riding through a northern winter is not as hard as it looks, but it needs different equipment and a little more time in the morning.

## Studded tyres first

On packed snow and black ice, ordinary tyres slide without warning. Studded tyres grip like nothing else; they are slower and noisy on bare asphalt, which is a small price for staying upright. Lower the pressure a little for more contact with the road.

## Be seen in the dark

In December it is dark on both rides. Use a bright front light, a rear light that flashes and reflective bands on your ankles: moving reflectors catch drivers' eyes better than a reflective jacket.

## Dress in layers

You will be cold for the first five minutes and warm after ten. A thin wool base layer, a windproof shell and lobster mittens are better than one thick coat. Keep a spare pair of socks at the office.

## Look after the chain

Road salt eats chains and gears. Rinse the drivetrain with warm water once a week and oil the chain afterwards.`,
  },
  {
    slug: 'choosing-argon2-parameters-for-password-hashing',
    title: 'Choosing Argon2 Parameters for Password Hashing',
    summary:
      'Memory cost, iterations and parallelism: how to pick Argon2id settings that slow attackers down without slowing your login page.',
    tags: ['Security'],
    markdown: `Argon2id won the Password Hashing Competition because it is memory-hard: guessing passwords on graphics cards or custom chips costs memory as well as time, and memory is expensive to parallelise. Its strength depends entirely on the parameters you choose.

## Start from memory

Pick the largest memory cost your servers can afford for the number of logins they handle at once. The OWASP guidance suggests at least 19 MiB with two iterations, or 46 MiB with one. If fifty users sign in at the same moment, that memory is needed fifty times over.

## Then tune the time

Increase the iteration count until one hash takes about half a second on your production hardware. Measure on the real machine, not on a laptop. Parallelism can usually stay at one for a web server that handles many requests at once.

## Upgrade old hashes on login

Store the parameters with every hash; the standard encoded format does this for you. When a user signs in and their hash uses weaker settings, verify it and then rehash the password with the current ones. A pepper kept outside the database adds protection if the table leaks.`,
  },
  {
    slug: 'container-queries-changed-how-i-build-card-layouts',
    title: 'Container Queries Changed How I Build Card Layouts',
    summary:
      'A card that adapts to the column it sits in, not to the whole viewport: replacing a dozen media queries with three container queries.',
    tags: ['CSS', 'Design'],
    markdown: `For years our product card had a dozen media queries, one for every place it appeared: the sidebar, the two-column grid, the full-width list on the home page. Each new layout meant another breakpoint. Container queries removed almost all of them.

## Size the card by its container

Declare the card's parent as a container with \`container-type: inline-size\`. The card can then ask how wide its container is, with \`@container (min-width: 30rem)\`, instead of asking about the viewport. The same card lays itself out horizontally in a wide column and stacks its image above the text in a narrow sidebar.

## Container units

Units such as \`cqi\` are a percentage of the container's inline size. A heading set with \`clamp(1rem, 4cqi, 1.5rem)\` grows and shrinks with the card, not with the window.

## What still needs media queries

The page's overall grid still depends on the viewport, and so do preferences such as reduced motion or a dark colour scheme. Container queries are for components; media queries stay for the page.`,
  },
  {
    slug: 'running-a-remote-team-on-written-decisions',
    title: 'Running a Remote Team on Written Decisions',
    summary: 'Meetings across six time zones did not scale. Short written proposals, a decision log and a two-day comment window did.',
    tags: ['Management', 'Writing'],
    markdown: `When our team spread across six time zones, the weekly planning call stopped working: someone was always asleep, and the people who missed it learned about decisions weeks later. We replaced most meetings with written proposals, and decisions got both faster and better.

## One page per proposal

A proposal states the problem, the options considered and the one recommended, in a single page. Anyone may comment for two working days. Silence counts as consent, which pushes people to read the proposals that matter to them.

## A decision log

Every accepted proposal gets one line in a shared decision log, with the date and a link. New colleagues read the log in their first week and understand why the system looks the way it does, without asking the people who were there.

## Keep a little synchronous time

Writing does not replace every conversation. We keep one optional social call a week and pair on hard problems by video. But the rule is simple: if it was not written down, it was not decided.`,
  },
  {
    slug: 'how-the-hanseatic-league-traded-herring-and-salt',
    title: 'How the Hanseatic League Traded Herring and Salt',
    summary: 'From Lübeck to Bergen: the medieval merchant network that fed northern Europe on salted fish.',
    tags: ['History'],
    markdown: `For three centuries the Hanseatic League, a network of merchant towns around the Baltic and the North Sea, controlled much of the trade of northern Europe. Its wealth rested on two humble goods: herring caught off the coast of Scania and salt brought from the mines of Lüneburg.

## Salt for the fish

Herring spoils within a day. Packed in barrels with salt from Lüneburg, carried overland to Lübeck on the Old Salt Road, it kept for months and could be sold across the continent during Lent, when the Church forbade meat.

## Kontors abroad

The League kept trading posts, called kontors, in Bergen, London, Bruges and Novgorod. In Bergen the German merchants of the Bryggen wharf bought dried cod from Norwegian fishermen and sold them grain they could not grow themselves.

## Decline

The herring shoals moved away from Scania in the fifteenth century, Dutch fleets learned to salt their catch at sea, and the rising territorial states no longer tolerated a trading power they did not control. The last general assembly of the League met in 1669.`,
  },
  {
    slug: 'a-thirty-minute-piano-practice-routine-for-adults',
    title: 'A Thirty-Minute Piano Practice Routine for Adults',
    summary: 'Scales, sight-reading and one piece at a time: how adult beginners can make steady progress with half an hour a day.',
    tags: ['Music'],
    markdown: `Adults who return to the piano after years away usually have less time than they had as children, and more impatience. Half an hour a day, used well, is enough for steady progress.

## Five minutes of scales and arpeggios

Start with one major scale and its relative minor, hands separately and then together, slowly and with a metronome. Scales are not a punishment: they teach the fingerings that appear in every piece you will play.

## Ten minutes of sight-reading

Read something easier than your repertoire, every day, without stopping to correct mistakes. Keeping the pulse going matters more than hitting every note. Hymn books and beginner duets are cheap and endless sources.

## Fifteen minutes on one piece

Work on a single passage of four to eight bars rather than playing the whole piece from the beginning. Practise the difficult bars slowly until they are correct three times in a row, then connect them to what comes before and after. Record yourself once a week: the recording hears what you miss while playing.`,
  },
  {
    slug: 'nau-pho-bo-ha-noi-tai-nha',
    title: 'Nấu phở bò Hà Nội tại nhà: nước dùng trong và thơm',
    summary: 'Xương ống, gừng và hành nướng, quế hồi thảo quả: cách ninh nồi nước dùng phở bò trong vắt mà vẫn đậm đà.',
    tags: ['Ẩm thực'],
    markdown: `Một bát phở bò ngon bắt đầu từ nồi nước dùng. Người Hà Nội chuộng nước phở trong, ngọt tự nhiên từ xương và thơm mùi quế hồi, không quá nhiều gia vị. Nấu phở tại nhà mất nhiều thời gian nhưng không khó, chỉ cần kiên nhẫn và làm đúng từng bước.

## Chần xương cho sạch

Xương ống bò rửa sạch, cho vào nồi nước lạnh, đun sôi khoảng năm phút rồi đổ bỏ nước đầu. Rửa lại xương dưới vòi nước. Bước này loại bỏ máu và cặn bẩn, giúp nước dùng trong hơn rất nhiều.

## Nướng gừng, hành và gia vị

Gừng và hành tím nướng trên bếp than hoặc bếp ga cho đến khi cháy xém vỏ, cạo sạch phần đen. Quế, hoa hồi, thảo quả và hạt mùi rang thơm trên chảo khô rồi cho vào túi vải.

## Ninh lửa nhỏ

Cho xương vào nồi nước mới, đun sôi rồi hạ lửa thật nhỏ, ninh từ tám đến mười hai tiếng. Thường xuyên hớt bọt. Nêm nước mắm và một chút đường phèn ở cuối. Bánh phở trần qua nước sôi, xếp thịt bò tái thái mỏng lên trên, chan nước dùng thật nóng và rắc hành lá.`,
  },
  {
    slug: 'da-lat-mua-mua-lich-trinh-ba-ngay',
    title: 'Đà Lạt mùa mưa: lịch trình ba ngày cho người đi bụi',
    summary: 'Mùa mưa Đà Lạt vắng khách, phòng rẻ và rừng thông xanh mướt. Gợi ý lịch trình ba ngày, chỗ ăn và những điều cần mang theo.',
    tags: ['Du lịch'],
    markdown: `Nhiều người ngại lên Đà Lạt từ tháng năm đến tháng mười vì mưa. Thật ra mưa ở thành phố ngàn hoa thường đến vào buổi chiều và tạnh nhanh, buổi sáng vẫn nắng đẹp. Mùa này khách ít, giá phòng rẻ và đồi thông xanh hơn bao giờ hết.

## Ngày thứ nhất: hồ Xuân Hương và chợ đêm

Đi bộ quanh hồ Xuân Hương vào buổi sáng, ghé quán cà phê nhìn ra hồ. Buổi tối xuống chợ đêm ăn bánh tráng nướng và uống sữa đậu nành nóng.

## Ngày thứ hai: rừng thông và thác

Thuê xe máy đi đồi chè Cầu Đất, sau đó ghé thác Datanla. Nhớ mang áo mưa và giày chống trơn vì đường mòn xuống thác khá dốc sau cơn mưa.

## Ngày thứ ba: làng hoa Vạn Thành

Ghé làng hoa Vạn Thành để xem người dân trồng hoa trong nhà kính, rồi mua ít mứt dâu và atiso làm quà. Chiều về sớm trước khi mưa lớn để kịp chuyến xe đêm về Sài Gòn.`,
  },
  {
    slug: 'tu-hoc-lap-trinh-python-trong-ba-thang',
    title: 'Tự học lập trình Python trong ba tháng',
    summary: 'Lộ trình mười hai tuần cho người mới bắt đầu: cú pháp cơ bản, làm việc với tệp, thư viện chuẩn và một dự án nhỏ để kết thúc.',
    tags: ['Python', 'Tutorials'],
    markdown: `Python là ngôn ngữ dễ đọc, cú pháp gọn gàng và có cộng đồng rất lớn, nên thường được chọn làm ngôn ngữ đầu tiên. Với khoảng một giờ mỗi ngày, người mới hoàn toàn có thể viết được chương trình hữu ích sau ba tháng.

## Tháng thứ nhất: nền tảng

Học biến, kiểu dữ liệu, câu lệnh điều kiện, vòng lặp và hàm. Mỗi ngày giải vài bài tập nhỏ trên các trang luyện lập trình. Đừng vội chuyển sang phần khó khi chưa viết được một hàm tính tổng các số chẵn trong danh sách.

## Tháng thứ hai: tệp và thư viện chuẩn

Tập đọc và ghi tệp văn bản, xử lý tệp CSV, làm quen với các mô-đun như datetime, pathlib và json. Học cách cài gói bằng pip trong một môi trường ảo riêng cho mỗi dự án.

## Tháng thứ ba: một dự án thật

Chọn một việc lặp đi lặp lại trong công việc hằng ngày và tự động hóa nó, chẳng hạn gộp các bảng tính hay đổi tên hàng loạt ảnh. Đưa mã lên GitHub, viết hướng dẫn sử dụng ngắn và nhờ bạn bè dùng thử.`,
  },
  {
    slug: 'ca-phe-trung-cau-chuyen-cua-mot-thuc-uong-ha-noi',
    title: 'Cà phê trứng: câu chuyện của một thức uống Hà Nội',
    summary: 'Ra đời những năm bốn mươi khi sữa tươi khan hiếm, ly cà phê trứng béo ngậy nay đã thành món phải thử khi đến phố cổ.',
    tags: ['Ẩm thực'],
    markdown: `Cà phê trứng ra đời ở Hà Nội vào cuối những năm bốn mươi, khi sữa tươi khan hiếm. Một người pha chế làm việc cho khách sạn lớn đã nghĩ ra cách đánh lòng đỏ trứng gà với đường cho bông lên, thay cho lớp kem sữa trên ly cà phê. Công thức ấy được truyền lại trong gia đình và đến nay vẫn được phục vụ ở phố cổ.

## Lớp kem trứng

Lòng đỏ trứng gà tươi đánh với đường và một chút sữa đặc cho đến khi hỗn hợp bông mịn, màu vàng nhạt và không còn mùi tanh. Bí quyết là đánh thật lâu và dùng trứng thật tươi.

## Cách thưởng thức

Cà phê phin đậm pha sẵn, rót vào ly nhỏ đặt trong bát nước nóng để giữ nhiệt, rồi múc lớp kem trứng lên trên. Dùng thìa khuấy nhẹ để vị đắng của cà phê hòa với vị ngọt béo của trứng.

## Những quán lâu năm

Du khách thường tìm đến những quán nhỏ nằm sâu trong ngõ quanh hồ Hoàn Kiếm, ngồi ghế thấp và ngắm phố phường qua ô cửa sổ tầng hai.`,
  },
  {
    slug: 'ruong-bac-thang-mu-cang-chai-mua-lua-chin',
    title: 'Ruộng bậc thang Mù Cang Chải mùa lúa chín',
    summary:
      'Cuối tháng chín, những thửa ruộng bậc thang ở Yên Bái chuyển sang màu vàng óng. Kinh nghiệm đi đèo Khau Phạ và chụp ảnh lúa chín.',
    tags: ['Du lịch', 'Nhiếp ảnh'],
    markdown: `Mỗi năm vào khoảng cuối tháng chín đến đầu tháng mười, những thửa ruộng bậc thang ở Mù Cang Chải, tỉnh Yên Bái, chuyển sang màu vàng óng. Người Hmông đã đắp những bậc ruộng này trên sườn núi qua nhiều thế hệ, tạo nên một trong những cảnh quan đẹp nhất vùng Tây Bắc.

## Đường đi

Từ Hà Nội đi xe khách đến Nghĩa Lộ rồi qua đèo Khau Phạ, một trong tứ đại đỉnh đèo của miền Bắc. Đèo dài, nhiều khúc cua gấp và thường có sương mù vào buổi sáng, nên người tự lái xe máy cần đi chậm và kiểm tra phanh kỹ.

## Chụp ảnh lúa chín

Đồi Mâm Xôi ở xã La Pán Tẩn là điểm chụp nổi tiếng nhất. Ánh sáng đẹp nhất vào sáng sớm và chiều muộn, khi nắng xiên làm nổi bật từng đường cong của ruộng. Nên mang ống kính tele để chụp các lớp ruộng chồng lên nhau.

## Tôn trọng người dân

Ruộng là sinh kế của bà con. Đừng giẫm lên bờ ruộng hay vào ruộng khi chưa được phép, và hỏi trước khi chụp ảnh người.`,
  },
  {
    slug: 'tiet-kiem-dien-mua-he-cho-can-ho-chung-cu',
    title: 'Tiết kiệm điện mùa hè cho căn hộ chung cư',
    summary: 'Hóa đơn tiền điện tăng gấp đôi khi nắng nóng. Những thay đổi nhỏ với điều hòa, tủ lạnh và rèm cửa giúp giảm đáng kể.',
    tags: ['Đời sống'],
    markdown: `Mỗi mùa hè, hóa đơn tiền điện của nhiều gia đình ở chung cư tăng gấp đôi, chủ yếu vì điều hòa chạy suốt ngày đêm. Giá điện bậc thang khiến những số điện cuối cùng đắt nhất, nên tiết kiệm được một phần nhỏ cũng giảm đáng kể số tiền phải trả.

## Điều hòa

Đặt nhiệt độ khoảng hai mươi sáu đến hai mươi tám độ và dùng thêm quạt để gió lưu thông. Mỗi độ thấp hơn làm máy tốn thêm vài phần trăm điện. Vệ sinh lưới lọc mỗi tháng một lần để máy không phải chạy quá sức.

## Chắn nắng từ bên ngoài

Căn hộ hướng tây nóng nhất vào buổi chiều. Rèm cản nhiệt, phim cách nhiệt dán kính hoặc chậu cây ngoài ban công giúp phòng mát hơn trước khi bật điều hòa.

## Tủ lạnh và thiết bị chờ

Không để tủ lạnh sát tường hay gần bếp, không cho thức ăn còn nóng vào tủ. Rút phích cắm ti vi, lò vi sóng và bộ sạc khi không dùng, vì chế độ chờ vẫn tiêu thụ điện suốt ngày.`,
  },
  {
    slug: 'bao-ve-tai-khoan-ngan-hang-truoc-cuoc-goi-lua-dao',
    title: 'Bảo vệ tài khoản ngân hàng trước các cuộc gọi lừa đảo',
    summary: 'Giả danh công an, nhân viên ngân hàng hay bưu điện: nhận biết các kịch bản lừa đảo qua điện thoại và giữ an toàn cho mã OTP.',
    tags: ['Security', 'Đời sống'],
    markdown: `Các cuộc gọi lừa đảo ngày càng tinh vi. Kẻ gian giả danh công an, nhân viên ngân hàng hoặc bưu điện, đọc đúng họ tên và số căn cước của nạn nhân rồi tạo cảm giác gấp gáp để người nghe làm theo mà không kịp suy nghĩ.

## Những dấu hiệu cần cảnh giác

Ngân hàng không bao giờ yêu cầu khách hàng đọc mã OTP, mật khẩu hay số thẻ qua điện thoại. Cơ quan công an không làm việc qua cuộc gọi video và không yêu cầu chuyển tiền vào tài khoản tạm giữ. Bất kỳ đường link nào gửi qua tin nhắn để cập nhật thông tin đều đáng ngờ.

## Cài đặt an toàn cho ứng dụng

Bật xác thực sinh trắc học, đặt hạn mức chuyển tiền hằng ngày ở mức vừa đủ và chỉ cài ứng dụng ngân hàng từ kho ứng dụng chính thức. Không cài ứng dụng lạ theo hướng dẫn của người gọi.

## Khi đã lỡ làm theo

Gọi ngay tổng đài chính thức của ngân hàng để khóa tài khoản, đổi mật khẩu và báo cho cơ quan công an nơi gần nhất. Càng báo sớm, khả năng chặn được giao dịch càng cao.`,
  },
];
