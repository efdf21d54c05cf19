import type { publicEn } from './public.ts';
import { recoveryVi } from './recovery.vi.ts';

/** The Vietnamese texts of `public.ts` (loaded with the Vietnamese catalogue, on demand). */
export const publicVi: Record<keyof typeof publicEn, string> = {
  'landing.sections': 'Các mục của trang',
  'landing.features': 'Tính năng',
  'landing.pricing': 'Bảng giá',
  'landing.faq': 'Hỏi đáp',
  'landing.contact': 'Liên hệ',
  'landing.login': 'Đăng nhập',
  'landing.dashboard': 'Bảng điều khiển',
  'landing.createAccount': 'Tạo tài khoản miễn phí',
  'landing.heroTitle': 'Nhận mã OTP qua SMS mà không cần SIM cá nhân',
  'landing.heroText':
    'Thuê một số điện thoại thật cho dịch vụ bạn cần, nhận mã xác minh trên bảng điều khiển chỉ sau vài giây và chỉ trả tiền cho những gì bạn dùng. Cùng nền tảng đó còn gửi SMS, MMS hàng loạt và trò chuyện hai chiều với khách hàng của bạn.',
  'landing.heroPoint1': 'Số SIM thật trên gateway của chúng tôi',
  'landing.heroPoint2': 'Mã hiện ra ngay, không cần tải lại trang',
  'landing.heroPoint3': 'Lượt thuê không dùng được hoàn tiền tự động',
  'landing.featuresTitle': 'Mọi thứ bạn cần cho xác minh và nhắn tin',
  'landing.feature1Title': 'Thuê số nhận OTP',
  'landing.feature1Text':
    'Chọn dịch vụ, nhận số, nhận mã. Mỗi lượt thuê kéo dài theo thời gian thuê của dịch vụ. Số đã nhận mã của một dịch vụ sẽ được rút khỏi kho số của dịch vụ đó, và lượt thuê không nhận được mã sẽ được hoàn tiền.',
  'landing.feature2Title': 'Gửi SMS hàng loạt',
  'landing.feature2Text':
    'Dán danh sách số hoặc tải lên tệp TXT, CSV, thêm một hay nhiều mẫu tin nhắn và gửi chiến dịch qua nhiều cổng SIM, có kết quả gửi cho từng tin.',
  'landing.feature3Title': 'Trò chuyện hai chiều',
  'landing.feature3Text':
    'Tin trả lời được gom vào hội thoại, với tên liên hệ, ghi chú, huy hiệu chưa đọc và tin nhắn hình ảnh hoặc video (MMS).',
  'landing.feature4Title': 'API cho phần mềm của bạn',
  'landing.feature4Text':
    'Tự động hóa việc thuê số bằng khóa API, gồm cả một endpoint tương thích với các thư viện SMS-activation phổ biến. Tài liệu có trên Swagger.',
  'landing.pricingTitle': 'Giá đơn giản, trả trước',
  'landing.pricingText':
    'Nạp số dư USD bằng USDT và trả theo mức sử dụng. Không thuê bao, không phí hằng tháng.',
  'landing.price1Title': 'Thuê số',
  'landing.price1Text':
    'Mỗi dịch vụ hiển thị giá riêng trước khi bạn thuê. Tiền được hoàn lại khi không có mã trước khi lượt thuê hết hạn, hoặc khi bạn hủy một đơn chưa có mã.',
  'landing.price2Title': 'Nhắn tin',
  'landing.price2Text': 'Gửi hàng loạt và trò chuyện dùng chung số dư, trong giới hạn của tài khoản.',
  'landing.price3Title': 'Nạp tiền',
  'landing.price3Text':
    'Nạp tối thiểu 10 USDT qua hóa đơn tiền điện tử. Số dư được cộng khi thanh toán được xác nhận.',
  'landing.faqTitle': 'Câu hỏi thường gặp',
  'landing.faq1Q': 'Tôi được dùng số đã thuê trong bao lâu?',
  'landing.faq1A':
    'Trong thời gian thuê của dịch vụ bạn chọn, thường là 20 phút. Một số dịch vụ cho phép nhận nhiều mã cho đến khi lượt thuê kết thúc.',
  'landing.faq2Q': 'Nếu không nhận được mã thì sao?',
  'landing.faq2A':
    'Đơn sẽ bị hủy khi hết thời gian và toàn bộ tiền được hoàn vào số dư. Bạn cũng có thể tự hủy đơn chưa có mã.',
  'landing.faq3Q': 'Tôi có thể dùng dịch vụ từ phần mềm của mình không?',
  'landing.faq3A':
    'Có. Hãy tạo khóa API ở trang Khóa API và làm theo tài liệu API. Lượt thuê qua API dùng chung số dư.',
  'landing.faq4Q': 'Tôi không được gửi những gì?',
  'landing.faq4A':
    'Bất cứ nội dung gian lận, lừa đảo hay bất hợp pháp nào. Bạn chịu hoàn toàn trách nhiệm về nội dung tin nhắn, và việc lạm dụng có thể dẫn đến tạm khóa hoặc chấm dứt tài khoản.',
  'landing.contactTitle': 'Liên hệ',
  'landing.contactText':
    'Có câu hỏi về đơn hàng, thanh toán hay API? Hãy viết cho chúng tôi, chúng tôi trả lời trong vòng một ngày làm việc.',
  'landing.contactEmail': 'Email: {email}',
  'legal.lastUpdated': 'Cập nhật lần cuối: 10/09/2025',
  'legal.supportEmail': 'support@simdock.app',

  'privacy.title': 'Chính sách quyền riêng tư',
  'privacy.intro':
    'SimDock cung cấp dịch vụ thuê số điện thoại nhận mã một lần (OTP) qua SMS và nền tảng nhắn tin SMS/MMS (“Dịch vụ”). Chính sách này giải thích chúng tôi xử lý những dữ liệu cá nhân nào khi bạn dùng Dịch vụ, vì sao, và bạn có những lựa chọn nào.',
  'privacy.s1.title': '1. Dữ liệu chúng tôi thu thập',
  'privacy.s1.body':
    '- Dữ liệu tài khoản: tên đăng nhập, địa chỉ email và mật khẩu. Mật khẩu chỉ được lưu dưới dạng băm một chiều; chúng tôi không thể đọc được.\n- Dữ liệu số dư và thanh toán: các lần nạp tiền, hóa đơn, số tiền, trạng thái thanh toán và các khoản trừ, hoàn tiền của lượt thuê. Thanh toán tiền điện tử do nhà cung cấp thanh toán xử lý; chúng tôi không bao giờ nhận khóa ví của bạn.\n- Dữ liệu dịch vụ: các số bạn thuê, SMS nhận được trên các số đó và mã trích ra; tin nhắn bạn gửi, người nhận và kết quả gửi; hội thoại, tên liên hệ và ghi chú; tệp và nội dung đa phương tiện bạn tải lên.\n- Dữ liệu kỹ thuật: địa chỉ IP, nhật ký yêu cầu, các lần đăng nhập và việc sử dụng khóa API.',
  'privacy.s2.title': '2. Cách chúng tôi sử dụng',
  'privacy.s2.body':
    '- Để cung cấp Dịch vụ: chuyển mã một lần cho bạn, gửi tin nhắn của bạn và đưa tin trả lời vào hội thoại.\n- Để quản lý số dư: cộng tiền nạp, trừ tiền thuê và hoàn tiền cho lượt thuê không dùng được.\n- Để giữ an toàn cho Dịch vụ: ngăn gian lận và lạm dụng, thực thi chính sách sử dụng trong Điều khoản dịch vụ và bảo vệ tài khoản khỏi truy cập trái phép.\n- Để trả lời yêu cầu hỗ trợ và thực hiện nghĩa vụ pháp lý.\nChúng tôi không bán dữ liệu cá nhân và không dùng dữ liệu cho quảng cáo.',
  'privacy.s3.title': '3. Nội dung tin nhắn',
  'privacy.s3.body':
    'Mã và tin nhắn đi qua các gateway SIM và mạng di động, nơi chúng được xử lý để chuyển đi. Nội dung tin nhắn được hiển thị cho bạn trên bảng điều khiển và trong lịch sử. Nhân viên của chúng tôi chỉ xem nội dung tin nhắn để điều tra lạm dụng, xử lý yêu cầu hỗ trợ của bạn, hoặc khi pháp luật yêu cầu.',
  'privacy.s4.title': '4. Chia sẻ',
  'privacy.s4.body':
    'Chúng tôi chỉ chia sẻ dữ liệu với các nhà mạng và đơn vị vận hành gateway cần thiết để chuyển tin nhắn, với nhà cung cấp thanh toán để xử lý nạp tiền, với các nhà cung cấp dịch vụ có cam kết bảo mật đang lưu trữ hoặc vận hành Dịch vụ, và với cơ quan chức năng khi pháp luật yêu cầu.',
  'privacy.s5.title': '5. Thời gian lưu trữ',
  'privacy.s5.body':
    'Dữ liệu tài khoản được lưu khi tài khoản còn tồn tại. Đơn hàng, tin nhắn và thanh toán được lưu chừng nào còn cần cho lịch sử của bạn, cho kế toán và cho việc giải quyết tranh chấp, sau đó được xóa hoặc ẩn danh. Nhật ký bảo mật được lưu trong một thời gian giới hạn.',
  'privacy.s6.title': '6. Bảo mật',
  'privacy.s6.body':
    'Mật khẩu được băm, khóa API và thông tin đăng nhập thiết bị được mã hóa khi lưu, quyền truy cập dữ liệu chỉ dành cho người cần đến, và mọi yêu cầu vào tài khoản của bạn đều phải mang mã đăng nhập hợp lệ.',
  'privacy.s7.title': '7. Quyền của bạn',
  'privacy.s7.body':
    'Bạn có thể xem và sửa thông tin tài khoản bất cứ lúc nào, và yêu cầu chúng tôi cung cấp bản sao dữ liệu hoặc xóa tài khoản. Hãy liên hệ theo thông tin bên dưới; chúng tôi trả lời trong vòng 30 ngày.',
  'privacy.s8.title': '8. Trẻ em',
  'privacy.s8.body':
    'Dịch vụ không dành cho trẻ em dưới 13 tuổi và chúng tôi không cố ý thu thập dữ liệu của các em. Nếu bạn cho rằng một đứa trẻ đã cung cấp dữ liệu cá nhân cho chúng tôi, hãy liên hệ để chúng tôi xóa.',
  'privacy.s9.title': '9. Lưu trữ trên trình duyệt',
  'privacy.s9.body':
    'Ứng dụng web lưu mã đăng nhập, ngôn ngữ và giao diện của bạn trong bộ nhớ cục bộ của trình duyệt. Chúng tôi không dùng cookie quảng cáo hay theo dõi.',
  'privacy.s10.title': '10. Thay đổi và liên hệ',
  'privacy.s10.body':
    'Khi chính sách này thay đổi, chúng tôi cập nhật ngày ở trên và thông báo trong ứng dụng với những thay đổi quan trọng. Câu hỏi: {email}.',

  'terms.title': 'Điều khoản dịch vụ',
  'terms.intro':
    'Các điều khoản này điều chỉnh việc bạn sử dụng SimDock, dịch vụ thuê số điện thoại nhận mã một lần (OTP) qua SMS và nền tảng nhắn tin SMS/MMS (“Dịch vụ”). Khi tạo tài khoản hoặc sử dụng Dịch vụ, bạn đồng ý với các điều khoản này.',
  'terms.s1.title': '1. Điều kiện sử dụng',
  'terms.s1.body':
    'Bạn phải từ 13 tuổi trở lên để sử dụng Dịch vụ. Nếu bạn chưa đủ tuổi thành niên theo luật nơi bạn sống, bạn chỉ được sử dụng khi có sự đồng ý của cha mẹ hoặc người giám hộ hợp pháp. Nếu bạn dùng Dịch vụ cho một tổ chức, bạn xác nhận mình có quyền chấp nhận các điều khoản này thay cho tổ chức đó.',
  'terms.s2.title': '2. Tài khoản của bạn',
  'terms.s2.body':
    'Hãy cung cấp thông tin chính xác khi đăng ký, giữ bí mật mật khẩu và khóa API, và báo ngay cho chúng tôi nếu nghi ngờ có người khác dùng tài khoản của bạn. Bạn chịu trách nhiệm về mọi hoạt động thực hiện bằng tài khoản và khóa API của mình.',
  'terms.s3.title': '3. Thuê số',
  'terms.s3.body':
    'Một lượt thuê cho bạn quyền sử dụng tạm thời một số điện thoại để nhận mã một lần cho dịch vụ bạn chọn, trong thời gian thuê của dịch vụ đó. Các số vẫn thuộc về chúng tôi và được dùng lại sau lượt thuê. Chúng tôi không bảo đảm bên thứ ba sẽ gửi mã; khi không có mã trước khi lượt thuê hết hạn, hoặc khi bạn hủy một đơn chưa có mã, tiền được hoàn vào số dư của bạn.',
  'terms.s4.title': '4. Nhắn tin',
  'terms.s4.body':
    'Bạn có thể gửi SMS và MMS qua Dịch vụ trong giới hạn đặt cho tài khoản của mình. Bạn phải có sự đồng ý mà pháp luật yêu cầu từ mọi người nhận và tôn trọng yêu cầu từ chối nhận tin.',
  'terms.s5.title': '5. Số dư và thanh toán',
  'terms.s5.body':
    'Dịch vụ trả trước. Bạn nạp số dư USD bằng hóa đơn tiền điện tử (USDT), tối thiểu 10 USDT, và lượt thuê, tin nhắn được trừ vào số dư theo giá hiển thị. Số dư được cộng theo số tiền thực nhận. Số dư không thể chuyển sang tài khoản khác và không được quy đổi thành tiền mặt, trừ khi pháp luật yêu cầu.',
  'terms.s6.title': '6. Chính sách sử dụng',
  'terms.s6.body':
    'Không sử dụng cho mục đích gian lận, lừa đảo hoặc bất hợp pháp. Cụ thể, bạn không được dùng Dịch vụ để:\n- gửi tin rác, tin giả mạo, lừa đảo hoặc bất kỳ tin nhắn nào nhằm đánh lừa người nhận;\n- mạo danh một người, một công ty hay một cơ quan;\n- quấy rối, đe dọa người khác, hoặc gửi nội dung vi phạm pháp luật nơi gửi hay nơi nhận;\n- tạo tài khoản hoặc xác minh danh tính nhằm gian lận hay vi phạm pháp luật.\nNgười gửi chịu hoàn toàn trách nhiệm về nội dung mọi tin nhắn gửi từ tài khoản của mình.',
  'terms.s7.title': '7. Tạm khóa và chấm dứt',
  'terms.s7.body':
    'Việc lạm dụng có thể dẫn đến tạm khóa hoặc chấm dứt tài khoản, có hoặc không có thông báo trước. Chúng tôi có thể chặn tin nhắn hoặc lượt thuê vi phạm các điều khoản này và báo cáo hoạt động bất hợp pháp cho cơ quan chức năng. Bạn có thể đóng tài khoản bất cứ lúc nào.',
  'terms.s8.title': '8. Tính sẵn sàng và trách nhiệm',
  'terms.s8.body':
    'Dịch vụ phụ thuộc vào mạng di động và các bên thứ ba gửi mã, vì vậy được cung cấp “nguyên trạng”, không bảo đảm hoạt động liên tục. Trong phạm vi pháp luật cho phép, trách nhiệm của chúng tôi giới hạn ở số tiền bạn đã trả trong ba tháng trước khi phát sinh khiếu nại.',
  'terms.s9.title': '9. Thay đổi và liên hệ',
  'terms.s9.body':
    'Chúng tôi có thể cập nhật các điều khoản này; ngày ở trên cho biết phiên bản mới nhất, và việc tiếp tục sử dụng sau khi thay đổi nghĩa là bạn chấp nhận. Câu hỏi: {email}.',
  'register.title': 'Tạo tài khoản',
  'register.subtitle': 'Thuê số, nhận mã và gửi tin nhắn trên cùng một bảng điều khiển.',
  'register.username': 'Tên đăng nhập',
  'register.usernameHint': '3–16 chữ cái, chữ số hoặc dấu gạch dưới.',
  'register.email': 'Email',
  'register.password': 'Mật khẩu',
  'register.passwordHint': 'Ít nhất 8 ký tự.',
  'register.confirm': 'Xác nhận mật khẩu',
  'register.submit': 'Tạo tài khoản',
  'register.submitting': 'Đang tạo tài khoản…',
  'register.haveAccount': 'Đã có tài khoản?',
  'register.login': 'Đăng nhập',
  'register.agree': 'Khi tạo tài khoản, bạn đồng ý với {terms} và {privacy}.',
  'landing.priceListTitle': 'Giá hiện tại',
  'landing.priceListText': 'Cập nhật trực tiếp từ danh sách dịch vụ. Bạn chỉ trả tiền khi thuê.',
  'landing.priceListEmpty': 'Hiện chưa có dịch vụ nào.',
  'landing.priceListFailed': 'Không tải được bảng giá',
  'landing.colService': 'Dịch vụ',
  'landing.colPrice': 'Giá',
  'landing.colAvailable': 'Còn sẵn',
  ...recoveryVi,
};
