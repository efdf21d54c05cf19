import type { appEn } from './app.ts';

/** The Vietnamese texts of `app.ts` (loaded with the Vietnamese catalogue, on demand). */
export const appVi: Record<keyof typeof appEn, string> = {
  'errors.network': 'Không kết nối được tới máy chủ. Hãy kiểm tra kết nối và thử lại.',
  'errors.offline': 'Bạn đang ngoại tuyến. Trang sẽ cập nhật lại khi có kết nối.',
  'errors.server': 'Máy chủ gặp sự cố khi trả lời. Vui lòng thử lại sau giây lát.',
  'errors.timeout': 'Máy chủ trả lời quá lâu. Vui lòng thử lại sau giây lát.',
  'errors.forbidden': 'Tài khoản của bạn không được phép xem nội dung này.',
  'errors.notFound': 'Không tìm thấy.',
  'errors.retrying': 'Đang thử lại…',
  'state.offlineBanner': 'Bạn đang ngoại tuyến. Dữ liệu hiển thị có thể đã cũ.',
  'state.backOnline': 'Đã có kết nối trở lại.',
  'state.noConnection': 'Mất kết nối',
  'state.pageWaiting':
    'Chưa tải được trang này: không kết nối được tới máy chủ. Trang sẽ tự tải khi có kết nối trở lại.',
  'state.scrollHint': 'Vuốt ngang để xem thêm',
  'state.moreActions': 'Thao tác khác',
  'state.actionsFor': 'Thao tác cho {name}',
};
